import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { CallAccounting } from '../gateway/call-accounting.js';
import type { GatewayCallOptions, GatewayCallResult, GatewayOptions } from '../gateway/gateway-options.js';
import type { RoutePlan, RouteTarget } from '../gateway/model-router.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import { cachedOrigin } from './cached-response.js';
import { type CachePlan, type CacheableOperation, ResponseCache, entryServes } from './response-cache.js';
import { serveCacheHit } from './serve-cache-hit.js';

/** What the response cache has to say about one call (see {@link CachedCalls.lookup}). */
export interface CacheLookup {
  /**
   * Set when the call uses the cache: resolves with the answer from the cache when there was one (admitted and booked
   * as a hit), else undefined (a miss: fetch, then {@link CacheLookup.record} or {@link CacheLookup.answered}).
   */
  hit?: Promise<GatewayCallResult<never> | undefined>;
  /** Wraps the upstream's chunks so that a complete stream is stored (unchanged when the call does not use the cache). */
  record(chunks: AsyncIterable<ChatCompletionChunk>, target: RouteTarget, warnings: readonly GatewayWarning[]): AsyncIterable<ChatCompletionChunk>;
  /**
   * Marks a fetched answer as a `miss` and, for `completion` and `embeddings`, stores its body (streams are stored by
   * {@link CacheLookup.record}). Returns `result` unchanged when the call does not use the cache.
   */
  answered<T>(result: GatewayCallResult<T>, kind?: 'completion' | 'embeddings'): GatewayCallResult<T>;
}

const UNCACHED: CacheLookup = { record: (chunks) => chunks, answered: (result) => result };

/**
 * The gateway's side of the response cache: looks a call up before it is routed, serves hits (through admission, see
 * {@link serveCacheHit}), and stores what misses fetch.
 */
export class CachedCalls {
  readonly cache?: ResponseCache;
  readonly #accounting?: CallAccounting;

  /** `options`: the gateway's (`responseCache`, `models`, `accounting`); `planFor` resolves a hit's route plan. */
  constructor(
    options: Pick<GatewayOptions, 'responseCache' | 'models' | 'accounting'>,
    private readonly planFor: (operation: CacheableOperation, model: string) => RoutePlan,
  ) {
    if (options.responseCache !== false) this.cache = new ResponseCache(options.responseCache, options.models);
    this.#accounting = options.accounting;
  }

  /**
   * How a validated request (`model`: the id the client sent) uses the cache, decided at once (a call that does not use
   * it waits for nothing). Its `hit` rejects only with what serving a hit throws (404 for a model no longer configured,
   * admission's 401/403/429); a failing store is a miss.
   */
  lookup(operation: CacheableOperation, request: Record<string, unknown>, options: GatewayCallOptions): CacheLookup {
    const cache = this.cache;
    const plan = cache?.plan(operation, request, { directive: options.cache, scope: options.cacheScope });
    if (!cache || !plan) return UNCACHED;
    return { ...cached(cache, plan), hit: this.#hit(cache, plan, operation, request, options) };
  }

  /**
   * Runs a non-streamed call through the cache: its answer from the cache on a hit, else `fetch()`'s, stored under the
   * call's key when the call uses the cache. Calls that do not use it run `fetch` at once.
   */
  through<T>(operation: CacheableOperation, request: Record<string, unknown>, options: GatewayCallOptions, fetch: () => Promise<GatewayCallResult<T>>): Promise<GatewayCallResult<T>> {
    const cache = this.lookup(operation, request, options);
    if (!cache.hit) return fetch();
    const kind = operation === 'embeddings' ? 'embeddings' : 'completion';
    return cache.hit.then(async (hit) => hit ?? cache.answered(await fetch(), kind));
  }

  async #hit(cache: ResponseCache, plan: CachePlan, operation: CacheableOperation, request: Record<string, unknown>, options: GatewayCallOptions) {
    const entry = await cache.get(plan);
    const includeUsage = (request.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    if (!entry || !entryServes(entry, request.stream === true, includeUsage)) return undefined;
    const routePlan = this.planFor(operation, request.model as string);
    return (await serveCacheHit({ operation, request, options, plan: routePlan, accounting: this.#accounting, entry })) as GatewayCallResult<never>;
  }
}

/** Record and store what a call that missed fetches, under `plan`. */
function cached(cache: ResponseCache, plan: CachePlan): Omit<CacheLookup, 'hit'> {
  return {
    record: (chunks, target, warnings) => cache.record(plan, chunks, cachedOrigin(target, warnings)),
    answered: (result, kind) => {
      if (kind) cache.save(plan, { kind, body: result.data, ...cachedOrigin(result.target, result.warnings), storedAt: Date.now() });
      return { ...result, cache: 'miss' };
    },
  };
}
