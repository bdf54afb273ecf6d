import type { AccountStore } from './account-store.js';
import { KeyLookupLimiter, type KeyLookupLimiterOptions } from './key-lookup-limiter.js';
import type { KeyRegistry } from './key-registry.js';
import type { KeyState } from './key-state.js';
import type { VirtualKey } from './virtual-key.js';

/**
 * Looks up in the store a virtual key this replica does not hold in memory yet (created or rotated on another replica
 * a moment ago, before its announcement arrived), and holds it once found. Concurrent look-ups of one secret share
 * one store query; look-ups are bounded per client address and in flight by a {@link KeyLookupLimiter}.
 */
export class KeyStoreLookup {
  readonly #store: AccountStore;
  readonly #keys: KeyRegistry;
  readonly #onError: (error: unknown) => void;
  readonly #limiter: KeyLookupLimiter;
  /** Store look-ups in flight by key hash: concurrent requests with one unknown key share one. */
  readonly #inFlight = new Map<string, Promise<KeyState | undefined>>();

  /**
   * @param store where keys are looked up; `keys` where a key found is held; `onError` gets a failed look-up (the
   *   answer is then "not found"); `limits` bound the look-ups (see {@link KeyLookupLimiterOptions}).
   */
  constructor(
    store: AccountStore,
    keys: KeyRegistry,
    onError: (error: unknown) => void,
    limits?: KeyLookupLimiterOptions,
  ) {
    this.#store = store;
    this.#keys = keys;
    this.#onError = onError;
    this.#limiter = new KeyLookupLimiter(limits);
  }

  /**
   * The key one of whose secrets hashes to `digest` (hex SHA-256), from the store: a promise of it (undefined when
   * there is none or the store failed), or undefined at once when `clientAddress` has used up its look-ups.
   */
  find(digest: string, clientAddress: string | undefined): Promise<KeyState | undefined> | undefined {
    let lookup = this.#inFlight.get(digest);
    if (lookup) return lookup;
    if (!this.#limiter.tryStart(clientAddress)) return undefined;
    lookup = this.#lookUp(digest).finally(() => {
      this.#limiter.end();
      this.#inFlight.delete(digest);
    });
    this.#inFlight.set(digest, lookup);
    return lookup;
  }

  async #lookUp(digest: string): Promise<KeyState | undefined> {
    let key: VirtualKey | undefined;
    try {
      key = await this.#store.getKeyByHash(digest);
    } catch (error) {
      this.#onError(error);
      return undefined;
    }
    // A key known here under another secret was rotated on another replica: take the stored secrets.
    return key ? this.#keys.put(key) : undefined;
  }
}
