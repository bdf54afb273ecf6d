import { LRUCache } from 'lru-cache';
import type { ResponseCacheStore } from './response-cache-store.js';

/** Default bound of {@link LruResponseCacheStore}: 64 MiB. */
export const DEFAULT_CACHE_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * The in-process {@link ResponseCacheStore}: an LRU (`lru-cache`) bounded by bytes. An entry's size is counted as two
 * bytes per UTF-16 code unit of its key and value (what V8 may hold for them); when adding an entry would pass
 * `maxBytes`, the least recently used entries are evicted first, and an entry larger than `maxBytes` on its own is not
 * kept. Each entry expires after its own TTL. Not shared between processes or replicas (use Redis for that).
 * @see https://github.com/isaacs/node-lru-cache#readme
 */
export class LruResponseCacheStore implements ResponseCacheStore {
  readonly #entries: LRUCache<string, string>;

  /** `maxBytes`: most bytes held (see above); default {@link DEFAULT_CACHE_MEMORY_BYTES}. Throws for a bound below 1. */
  constructor(maxBytes = DEFAULT_CACHE_MEMORY_BYTES) {
    if (!(maxBytes >= 1))
      throw new Error(`The response cache's memory bound must be at least 1 byte (got ${maxBytes}).`);
    this.#entries = new LRUCache<string, string>({
      maxSize: maxBytes,
      sizeCalculation: (value, key) => 2 * (value.length + key.length),
    });
  }

  async get(key: string): Promise<string | undefined> {
    return this.#entries.get(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    if (2 * (value.length + key.length) > this.#entries.maxSize) return;
    this.#entries.set(key, value, { ttl: ttlMs });
  }

  /** Bytes held now (as counted above). */
  get bytes(): number {
    return this.#entries.calculatedSize;
  }

  /** Entries held now (expired ones not yet evicted included). */
  get size(): number {
    return this.#entries.size;
  }
}
