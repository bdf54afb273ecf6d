import { type LimitFields, optionalLimits } from './limit-fields.js';

export type { BudgetPeriod } from './limit-fields.js';

/**
 * A gateway-issued key and its limits (see {@link LimitFields}), as stored. The secret itself is never stored: only
 * its SHA-256 hash (`key_hash`, hex) and a display prefix (`key_prefix`, e.g. `sk-sy-AbC1…`).
 */
export interface VirtualKey extends LimitFields {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  /** The team whose limits apply too; null or absent = none. */
  team_id?: string | null;
  /** ISO-8601; null = never. */
  expires_at: string | null;
  metadata: Record<string, unknown> | null;
  /** ISO-8601. */
  created_at: string;
  /** ISO-8601 when revoked; null while active. */
  revoked_at: string | null;
  /**
   * SHA-256 (hex) of the secret the last rotation replaced, accepted until `previous_key_expires_at`; null (or absent,
   * for keys stored before rotation existed) when there is none.
   */
  previous_key_hash?: string | null;
  /** Display prefix of that previous secret. */
  previous_key_prefix?: string | null;
  /** ISO-8601 end of the previous secret's grace period; null when there is no previous secret. */
  previous_key_expires_at?: string | null;
  /** ISO-8601 of the last rotation; null when never rotated. */
  rotated_at?: string | null;
}

/** A key as the admin API shows it: no hashes; the rotation fields always present (null when not rotated). */
export type VirtualKeyView = Omit<VirtualKey, 'key_hash' | 'previous_key_hash'> & {
  concurrency_limit: number | null;
  previous_key_prefix: string | null;
  previous_key_expires_at: string | null;
  rotated_at: string | null;
};

/** Strips the hashes before a key leaves the server. */
export function toKeyView(key: VirtualKey): VirtualKeyView {
  const { key_hash: _hash, previous_key_hash: _previous, ...view } = key;
  return {
    ...view,
    ...optionalLimits(key),
    team_id: key.team_id ?? null,
    previous_key_prefix: key.previous_key_hash ? (key.previous_key_prefix ?? null) : null,
    previous_key_expires_at: key.previous_key_hash ? (key.previous_key_expires_at ?? null) : null,
    rotated_at: key.rotated_at ?? null,
  };
}
