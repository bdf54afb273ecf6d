/**
 * A model's response-cache settings (config `models[].cache`). Without `ttlS` the model's answers are cached only for
 * requests that opt in with a {@link CacheDirective}.
 */
export interface ModelCacheSettings {
  /** Cache this model's answers for this long, seconds. Unset: only requests that opt in are cached. */
  ttlS?: number;
  /** Share entries between every calling key (default false: each key sees only its own entries). */
  shared?: boolean;
  /** Also cache requests that set `temperature` above 0 explicitly (default false: they are never cached). */
  nondeterministic?: boolean;
}

/**
 * What one request asks of the cache (HTTP: the `x-switchyard-cache` request header): `{ ttlS }` caches its answer
 * for that many seconds (capped by {@link ResponseCacheOptions.maxTtlS}) even when the model has no `ttlS`;
 * `'no-cache'` neither reads nor writes the cache.
 */
export type CacheDirective = { ttlS: number } | 'no-cache';

/** Whether an answer came from the cache (`hit`) or was fetched and may have been stored (`miss`). */
export type CacheStatus = 'hit' | 'miss';
