import { hash, timingSafeEqual } from 'node:crypto';
import { authenticationError } from '../errors/common-errors.js';

// One-shot `crypto.hash`: no Hash object per call (the presented key is hashed on every request).
const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

/**
 * The gateway's own API keys (never upstream keys). Keys are held as SHA-256 digests and compared in constant
 * time against every key, so neither timing nor memory dumps reveal them.
 */
export class KeyRing {
  readonly #digests: Buffer[];

  constructor(keys: readonly string[]) {
    this.#digests = keys.filter((k) => k.length > 0).map(digest);
  }

  /** Number of keys held. */
  get size(): number {
    return this.#digests.length;
  }

  /** True when `key` is one of the ring's keys. */
  has(key: string): boolean {
    const candidate = digest(key);
    let found = false;
    for (const d of this.#digests) found = timingSafeEqual(candidate, d) || found;
    return found;
  }

  /**
   * Checks an `Authorization` header value (`Bearer <key>`). Throws 401 (OpenAI-shaped, code `invalid_api_key`)
   * when it is missing, malformed or holds an unknown key. The key is never echoed.
   */
  authenticate(authorization: string | undefined): void {
    if (!authorization) {
      throw authenticationError(
        "You didn't provide an API key. Send it in the Authorization header as 'Bearer <key>', using a key this gateway issued.",
      );
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match || !this.has(match[1]!)) {
      throw authenticationError('Incorrect API key provided. Use a key issued by this gateway.');
    }
  }
}
