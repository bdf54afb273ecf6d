import { timingSafeEqual } from 'node:crypto';
import { KeyState } from './key-state.js';
import type { VirtualKey } from './virtual-key.js';

/**
 * The virtual keys one gateway holds in memory, by id and by the SHA-256 hash of each secret that may still be valid:
 * the current one and, after a rotation, the previous one (until the key changes again). Bounded by the keys in the store.
 */
export class KeyRegistry {
  readonly #byId = new Map<string, KeyState>();
  readonly #byHash = new Map<string, KeyState>();

  /** The key with this id, or undefined. */
  get(id: string): KeyState | undefined {
    return this.#byId.get(id);
  }

  /** Every key held, in the order they were first seen. */
  all(): IterableIterator<KeyState> {
    return this.#byId.values();
  }

  /** The key one of whose secrets hashes to `digest` (hex), compared in constant time; undefined otherwise. */
  find(digest: string): KeyState | undefined {
    const state = this.#byHash.get(digest);
    if (!state) return undefined;
    const stored = digest === state.key.key_hash ? state.key.key_hash : state.key.previous_key_hash;
    return stored && timingSafeEqual(Buffer.from(digest, 'hex'), Buffer.from(stored, 'hex')) ? state : undefined;
  }

  /** Holds `key`: a new {@link KeyState}, or the known one with its fields (and secrets) replaced. Returns the state. */
  put(key: VirtualKey): KeyState {
    let state = this.#byId.get(key.id);
    if (state) {
      for (const digest of [state.key.key_hash, state.key.previous_key_hash])
        if (digest && this.#byHash.get(digest) === state) this.#byHash.delete(digest);
      state.key = key; // the limiter resizes its buckets on the next call, without refilling them
    } else {
      state = new KeyState(key);
      this.#byId.set(key.id, state);
    }
    this.#byHash.set(key.key_hash, state);
    if (key.previous_key_hash) this.#byHash.set(key.previous_key_hash, state);
    return state;
  }
}
