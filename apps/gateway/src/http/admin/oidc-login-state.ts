import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** How long a sign-in may take at the provider, ms. */
export const LOGIN_TTL_MS = 10 * 60_000;

/** What the gateway keeps between `/admin/sso/login` and the callback: the checks of the authorization response. */
export interface LoginState {
  /** Compared with the callback's `state` (CSRF protection of the redirect). */
  state: string;
  /** Compared with the ID token's `nonce` (replay protection). */
  nonce: string;
  /** PKCE `code_verifier` (RFC 7636), sent with the code to the token endpoint. */
  verifier: string;
  /** When this sign-in stops being accepted, unix ms. */
  expires_at: number;
}

const loginStateSchema = z.strictObject({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(43).max(128),
  expires_at: z.number(),
});

/**
 * Seals and opens {@link LoginState} for the sign-in cookie with AES-256-GCM under a key derived (HKDF-SHA256) from the
 * master key, so that every replica of one config can open what another sealed, and the browser can neither read the
 * PKCE verifier nor change anything. No server state is kept for a sign-in in progress.
 * @see https://www.rfc-editor.org/rfc/rfc5869
 */
export class LoginStateSeal {
  readonly #key: Buffer;

  constructor(masterKey: string) {
    this.#key = Buffer.from(hkdfSync('sha256', masterKey, 'switchyard', 'oidc login state v1', 32));
  }

  /** The sealed text (base64url: 12-byte IV, ciphertext, 16-byte tag). */
  seal(state: LoginState): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The state sealed in `text`; undefined when absent, tampered with, sealed under another key or expired. */
  open(text: string | undefined, now = Date.now()): LoginState | undefined {
    if (!text || text.length > 4096) return undefined;
    const raw = Buffer.from(text, 'base64url');
    if (raw.length < 12 + 16 + 2) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      const json = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
      const parsed = loginStateSchema.safeParse(JSON.parse(json.toString('utf8')));
      return parsed.success && parsed.data.expires_at > now ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}
