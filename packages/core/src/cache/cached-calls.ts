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
  /** The answer from the cache, when there was one (admitted and booked as a hit). */
  hit?: GatewayCallResult<never>;
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
   * Looks up a validated request (`model`: the id the client sent). Throws only what serving a hit throws (404 for a
   * model no longer configured, admission's 401/403/429); a failing store is a miss.
   */
  async lookup(operation: CacheableOperation, request: Record<string, unknown>, options: GatewayCallOptions): Promise<CacheLookup> {
    const cache = this.cache;
    const plan = cache?.plan(operation, request, { directive: options.cache, scope: options.cacheScope });
    if (!cache || !plan) return UNCACHED;
    const entry = await cache.get(plan);
    const includeUsage = (request.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    if (entry && entryServes(entry, request.stream === true, includeUsage)) {
      const routePlan = this.planFor(operation, request.model as string);
      const hit = await serveCacheHit({ operation, request, options, plan: routePlan, accounting: this.#accounting, entry });
      return { ...UNCACHED, hit: hit as GatewayCallResult<never> };
    }
    return missed(cache, plan);
  }
}

function missed(cache: ResponseCache, plan: CachePlan): CacheLookup {
  return {
    record: (chunks, target, warnings) => cache.record(plan, chunks, cachedOrigin(target, warnings)),
    answered: (result, kind) => {
      if (kind) cache.save(plan, { kind, body: result.data, ...cachedOrigin(result.target, result.warnings), storedAt: Date.now() });
      return { ...result, cache: 'miss' };
    },
  };
}
