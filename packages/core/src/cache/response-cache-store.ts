/**
 * Where the response cache keeps its entries: an in-process LRU ({@link LruResponseCacheStore}) or Redis
 * (`RedisResponseCacheStore` in `@switchyard/redis`). Keys are opaque strings (a hash of the normalised request, see
 * {@link responseCacheKey}); values are serialised answers (JSON text). A store that fails may throw or reject: the
 * cache treats every failure as a miss and never fails the call.
 */
export interface ResponseCacheStore {
  /** The value stored under `key`, or undefined when there is none (or it expired). */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs` milliseconds (replacing any previous value). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}
