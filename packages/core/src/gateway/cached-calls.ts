import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { CallAccounting } from '../accounting/call-accounting.js';
import type { GatewayCallOptions, GatewayCallResult, GatewayOptions } from './gateway-options.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
import type { ModelDefinition } from '../model/model-definition.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import { type CachedResponse, cachedOrigin, parseCachedResponse } from '../cache/cached-response.js';
import {
  type CachePlan,
  type CacheRequestContext,
  type CacheableOperation,
  ResponseCache,
  entryServes,
} from '../cache/response-cache.js';
import { serveCacheHit } from './serve-cache-hit.js';

/** What the response cache has to say about one call (see {@link CachedCalls.lookup}). */
export interface CacheLookup {
  /**
   * Set when the call uses the cache: resolves with the answer from the cache when there was one (admitted and booked
   * as a hit), else undefined (a miss: fetch, then {@link CacheLookup.record} or {@link CacheLookup.answered}).
   */
  hit?: Promise<GatewayCallResult<never> | undefined>;
  /** True when {@link CacheLookup.record} keeps a copy of the chunks (the call uses the cache); else it returns them unchanged. */
  records: boolean;
  /** Wraps the upstream's chunks so that a complete stream is stored (unchanged when the call does not use the cache). */
  record(
    chunks: AsyncIterable<ChatCompletionChunk>,
    target: RouteTarget,
    warnings: readonly GatewayWarning[],
  ): AsyncIterable<ChatCompletionChunk>;
  /**
   * Marks a fetched answer as a `miss` and, for `completion` and `embeddings`, stores its body (streams are stored by
   * {@link CacheLookup.record}). Returns `result` unchanged when the call does not use the cache.
   */
  answered<T>(result: GatewayCallResult<T>, kind?: 'completion' | 'embeddings'): GatewayCallResult<T>;
}

/** A {@link CacheLookup} of a call that uses the cache: its key and what {@link CacheLookup.answered} stored. */
interface KeyedLookup extends CacheLookup {
  key: string;
  stored?: string;
}

/**
 * The {@link CacheRequestContext} of one call, read from its options; `scope` is read (and may be computed, see
 * `GatewayCallOptions.cacheScope`) only when the cache asks for it. A class with a prototype getter, not an object
 * literal with `get scope()`: V8 turns each such literal into a dictionary-mode object with an accessor of its own
 * (`node --log-maps`: `NormalizeCached AccessorsOverwritingNonAccessors`, once per call), and what its getter's closure
 * reaches (the call's options, hence its request) then survived scavenges and was promoted to the old space: about
 * 12.8 KB per non-streamed chat, cleared only by mark-compacts.
 */
class CallCacheContext implements CacheRequestContext {
  readonly directive: GatewayCallOptions['cache'];
  readonly #options: GatewayCallOptions;

  constructor(options: GatewayCallOptions) {
    this.directive = options.cache;
    this.#options = options;
  }

  get scope(): string | undefined {
    return this.#options.cacheScope;
  }
}

const UNCACHED: CacheLookup = { records: false, record: (chunks) => chunks, answered: (result) => result };

/** Resolves with `promise`'s value, or with undefined as soon as `signal` aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}

/**
 * The gateway's side of the response cache: looks a call up before it is routed, serves hits (through admission, see
 * {@link serveCacheHit}), and stores what misses fetch. Within this process, identical non-streamed calls that miss
 * while the first of them is still fetching wait for it and are answered from its answer as hits (one upstream call);
 * if it fails, each fetches on its own.
 */
export class CachedCalls {
  readonly cache?: ResponseCache;
  readonly #accounting?: CallAccounting;
  /** Non-streamed misses being fetched, by cache key: resolve with the stored entry's text (undefined if none). */
  readonly #inflight = new Map<string, Promise<string | undefined>>();

  /**
   * `options`: the gateway's (`responseCache`, `models`, `accounting`); `planFor` resolves a hit's route plan; `resolve`
   * the configured model whose `cache` settings apply to a requested id (see `ResponseCache`).
   */
  constructor(
    options: Pick<GatewayOptions, 'responseCache' | 'models' | 'accounting'>,
    private readonly planFor: (operation: CacheableOperation, model: string) => RoutePlan,
    resolve?: (model: string) => ModelDefinition | undefined,
  ) {
    if (options.responseCache !== false) this.cache = new ResponseCache(options.responseCache, options.models, resolve);
    this.#accounting = options.accounting;
  }

  /**
   * How a validated request (`model`: the id the client sent) uses the cache, decided at once (a call that does not use
   * it waits for nothing). Its `hit` rejects only with what serving a hit throws (404 for a model no longer configured,
   * admission's 401/403/429); a failing store is a miss.
   */
  lookup(operation: CacheableOperation, request: Record<string, unknown>, options: GatewayCallOptions): CacheLookup {
    const cache = this.cache;
    const plan = cache?.plan(operation, request, new CallCacheContext(options));
    if (!cache || !plan) return UNCACHED;
    const lookup: KeyedLookup = cached(cache, plan);
    lookup.hit = this.#hit(cache, plan, operation, request, options);
    return lookup;
  }

  /**
   * Runs a call through the cache: its answer from the cache on a hit, else `fetch(lookup)`'s (with `kind`, the answer
   * is stored here; else `fetch` stores it through the lookup). Identical non-streamed misses in flight at once share
   * the first one's answer. Calls that do not use the cache run `fetch` at once.
   */
  through<T>(
    operation: CacheableOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
    fetch: (lookup: CacheLookup) => Promise<GatewayCallResult<T>>,
    kind?: 'completion' | 'embeddings',
  ): Promise<GatewayCallResult<T>> {
    const lookup = this.lookup(operation, request, options) as CacheLookup & Partial<KeyedLookup>;
    if (!lookup.hit || !lookup.key) return fetch(lookup);
    const key = lookup.key;
    return lookup.hit.then(async (hit) => {
      if (hit) return hit;
      const stream = request.stream === true;
      const leader = stream ? undefined : this.#inflight.get(key);
      if (leader) {
        const text = await unlessAborted(leader, options.signal);
        const entry = text === undefined ? undefined : parseCachedResponse(text);
        if (entry && entryServes(entry, false, false))
          return this.#serve(operation, request, options, entry) as Promise<GatewayCallResult<T>>;
      }
      let done: ((text: string | undefined) => void) | undefined;
      if (!stream && !leader) this.#inflight.set(key, new Promise((resolve) => (done = resolve)));
      try {
        const result = await fetch(lookup);
        return kind ? lookup.answered(result, kind) : result;
      } finally {
        if (done) {
          this.#inflight.delete(key);
          done(lookup.stored);
        }
      }
    });
  }

  async #hit(
    cache: ResponseCache,
    plan: CachePlan,
    operation: CacheableOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
  ) {
    const entry = await cache.get(plan);
    const includeUsage = (request.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    if (!entry || !entryServes(entry, request.stream === true, includeUsage)) return undefined;
    return this.#serve(operation, request, options, entry);
  }

  async #serve(
    operation: CacheableOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
    entry: CachedResponse,
  ) {
    const routePlan = this.planFor(operation, request.model as string);
    return (await serveCacheHit({
      operation,
      request,
      options,
      plan: routePlan,
      accounting: this.#accounting,
      entry,
    })) as GatewayCallResult<never>;
  }
}

/** Record and store what a call that missed fetches, under `plan`. */
function cached(cache: ResponseCache, plan: CachePlan): Omit<KeyedLookup, 'hit'> {
  const lookup: Omit<KeyedLookup, 'hit'> = {
    key: plan.key,
    records: true,
    record: (chunks, target, warnings) => cache.record(plan, chunks, cachedOrigin(target, warnings)),
    answered: (result, kind) => {
      if (kind)
        lookup.stored = cache.save(plan, {
          kind,
          body: result.data,
          ...cachedOrigin(result.target, result.warnings),
          storedAt: Date.now(),
        });
      return { ...result, cache: 'miss' };
    },
  };
  return lookup;
}
