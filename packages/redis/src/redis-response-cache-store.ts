import type { ResponseCacheStore } from '@switchyard/core';
import type { Redis } from 'ioredis';
import type { FailureReporter } from './limits-unavailable.js';

/** Options of {@link RedisResponseCacheStore}. */
export interface RedisResponseCacheStoreOptions {
  /** Prefix of every key (config `redis.key_prefix`); entries live under `<prefix>cache:<operation>:<sha256>`. */
  keyPrefix: string;
  /** Where failures go (at most one log line a minute). */
  failures: FailureReporter;
}

/**
 * The response cache in Redis, shared by every replica and worker: one string per entry (`SET … PX <ttl>`, so Redis
 * expires it), read with `GET`. A command that fails or times out (`redis.timeout_ms`) never fails the call: a failed
 * read is a miss, a failed write is dropped, and the failure is logged at most once a minute. Redis bounds the
 * memory: set `maxmemory` with `maxmemory-policy volatile-lru` (or `allkeys-lru`) on a Redis that holds the cache.
 * @see https://redis.io/docs/latest/commands/set/
 */
export class RedisResponseCacheStore implements ResponseCacheStore {
  readonly #prefix: string;

  constructor(
    private readonly client: Redis,
    private readonly options: RedisResponseCacheStoreOptions,
  ) {
    this.#prefix = `${options.keyPrefix}cache:`;
  }

  async get(key: string): Promise<string | undefined> {
    try {
      return (await this.client.get(this.#prefix + key)) ?? undefined;
    } catch (error) {
      this.options.failures.report('Redis response cache unreachable (lookups are misses)', error);
      return undefined;
    }
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    try {
      await this.client.set(this.#prefix + key, value, 'PX', Math.max(1, Math.round(ttlMs)));
    } catch (error) {
      this.options.failures.report('Redis response cache unreachable (answers are not stored)', error);
    }
  }
}
