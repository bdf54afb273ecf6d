import { hash as digestOf, randomBytes } from 'node:crypto';
import type { VirtualKey } from './virtual-key.js';

/** The prefix of every virtual key's secret. */
export const KEY_PREFIX = 'sk-sy-';
/** A virtual key as {@link newKeySecret} makes them: the prefix and 24 random bytes in base64url. */
export const VIRTUAL_KEY = /^sk-sy-[A-Za-z0-9_-]{32}$/;

/** SHA-256 of a secret, hex (64 characters). One-shot `crypto.hash`: no Hash object per call (a key is hashed on every request). */
export const hashSecret = (secret: string): string => digestOf('sha256', secret, 'hex');

/** The token of an `Authorization: Bearer <token>` header, else undefined. */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/** SHA-256 (hex) of a token shaped like a virtual key's secret (`sk-sy-…`), else undefined. */
export const virtualDigest = (token: string | undefined): string | undefined =>
  token?.startsWith(KEY_PREFIX) ? hashSecret(token) : undefined;

/** A fresh secret (`sk-sy-` + 24 random bytes in base64url), its hash and its display prefix (`sk-sy-AbC1…`). */
export function newKeySecret(): { secret: string; key_hash: string; key_prefix: string } {
  const secret = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  return { secret, key_hash: hashSecret(secret), key_prefix: `${secret.slice(0, 10)}…` };
}

/**
 * Which of a key's secrets hashes to `digest`: `current`, `previous` (the secret a rotation replaced, while its grace
 * period runs: `previous_key_expires_at` later than `now`, unix ms), `expired` (that secret after its grace period), or
 * undefined (neither).
 */
export function secretOf(
  key: VirtualKey,
  digest: string,
  now = Date.now(),
): 'current' | 'previous' | 'expired' | undefined {
  if (digest === key.key_hash) return 'current';
  if (!key.previous_key_hash || digest !== key.previous_key_hash) return undefined;
  return key.previous_key_expires_at && Date.parse(key.previous_key_expires_at) > now ? 'previous' : 'expired';
}

/**
 * `key` with a new secret: the current one becomes `previous_key_*`, valid until `graceSeconds` after `now` (unix ms);
 * with 0 there is no previous secret. A secret an earlier rotation replaced is dropped either way. Returns the key to
 * store and the new secret (shown once).
 */
export function rotateSecret(
  key: VirtualKey,
  graceSeconds: number,
  now = Date.now(),
): { key: VirtualKey; secret: string } {
  const { secret, key_hash, key_prefix } = newKeySecret();
  const grace = graceSeconds > 0;
  return {
    secret,
    key: {
      ...key,
      key_hash,
      key_prefix,
      previous_key_hash: grace ? key.key_hash : null,
      previous_key_prefix: grace ? key.key_prefix : null,
      previous_key_expires_at: grace ? new Date(now + graceSeconds * 1000).toISOString() : null,
      rotated_at: new Date(now).toISOString(),
    },
  };
}
