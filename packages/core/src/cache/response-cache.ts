import type { ModelDefinition } from '../model/model-definition.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import {
  type CachedChunks,
  type CachedResponse,
  parseCachedResponse,
  serializeCachedResponse,
} from './cached-response.js';
import { responseCacheKey } from './cache-key.js';
import type { CacheDirective, ModelCacheSettings } from '../model/cache-settings.js';
import { LruResponseCacheStore } from './lru-response-cache-store.js';
import type { ResponseCacheStore } from './response-cache-store.js';

/** Options of the gateway's response cache (`GatewayOptions.responseCache`). */
export interface ResponseCacheOptions {
  /** Where entries live. Default: an in-process {@link LruResponseCacheStore} of 64 MiB. */
  store?: ResponseCacheStore;
  /** Longest TTL a request may ask for with a {@link CacheDirective}, seconds (longer ones are cut). Default 3,600. */
  maxTtlS?: number;
  /** Answers larger than this (serialised, bytes) are not cached. Default 4 MiB. */
  maxEntryBytes?: number;
}

/** The cacheable operations. */
export type CacheableOperation = 'chatCompletions' | 'embeddings';

/** How one request uses the cache: its key and, for the answer it fetches, how long to keep it (ms). */
export interface CachePlan {
  key: string;
  ttlMs: number;
}

/** What one call tells the cache about itself. */
export interface CacheRequestContext {
  /** The request's own wish (HTTP: `x-switchyard-cache`). */
  directive?: CacheDirective;
  /**
   * Who calls (e.g. a hash of the caller's key): entries of models without `shared` are seen only by the same scope.
   * Without it, only `shared` models use the cache. Read only for a call that would use the cache, so it may be a getter.
   */
  scope?: string;
}

/** Default {@link ResponseCacheOptions.maxTtlS}, seconds. */
export const DEFAULT_CACHE_MAX_TTL_S = 3_600;
/** Default {@link ResponseCacheOptions.maxEntryBytes}. */
export const DEFAULT_CACHE_MAX_ENTRY_BYTES = 4 * 1024 * 1024;

/**
 * The exact-match response cache of chat completions (streamed or not) and embeddings. A request uses it when its model
 * has `cache.ttlS` or the request opts in with a `{ ttlS }` directive, unless the directive is `'no-cache'`; a chat
 * request that sets `temperature` above 0 explicitly uses it only when the model says `cache.nondeterministic`.
 * Entries are keyed by {@link responseCacheKey}: the normalised request plus the caller's scope, unless the model says
 * `cache.shared`. A failing store never fails a call: a read that fails is a miss, a write that fails is forgotten.
 */
export class ResponseCache {
  readonly store: ResponseCacheStore;
  readonly #maxTtlS: number;
  readonly #maxEntryBytes: number;
  readonly #models: ReadonlyMap<string, ModelCacheSettings>;

  /**
   * `resolve` gives the configured model a requested id resolves to (an alias's target, the pattern it matches), whose
   * `cache` settings apply; without it, settings are looked up by the requested id.
   */
  constructor(
    options: ResponseCacheOptions = {},
    models: readonly ModelDefinition[] = [],
    resolve?: (model: string) => ModelDefinition | undefined,
  ) {
    this.store = options.store ?? new LruResponseCacheStore();
    this.#maxTtlS = options.maxTtlS ?? DEFAULT_CACHE_MAX_TTL_S;
    this.#maxEntryBytes = options.maxEntryBytes ?? DEFAULT_CACHE_MAX_ENTRY_BYTES;
    this.#models = new Map(models.flatMap((m) => (m.cache ? [[m.id, m.cache] as const] : [])));
    this.#resolve = resolve;
  }

  readonly #resolve?: (model: string) => ModelDefinition | undefined;

  /** The cache settings of the model `model` resolves to (none when no model has any: nothing to resolve). */
  #settingsOf(model: string): ModelCacheSettings | undefined {
    if (this.#models.size === 0) return undefined;
    return this.#resolve ? this.#resolve(model)?.cache : this.#models.get(model);
  }

  /** How `request` (validated, `model` being the id the client sent) uses the cache; undefined when it does not. */
  plan(
    operation: CacheableOperation,
    request: Record<string, unknown>,
    context: CacheRequestContext,
  ): CachePlan | undefined {
    const { directive } = context;
    if (directive === 'no-cache') return undefined;
    const settings = this.#settingsOf(request.model as string);
    const ttlS = directive ? Math.min(directive.ttlS, this.#maxTtlS) : settings?.ttlS;
    if (!ttlS || ttlS <= 0) return undefined;
    const temperature = request.temperature;
    if (
      operation === 'chatCompletions' &&
      typeof temperature === 'number' &&
      temperature > 0 &&
      settings?.nondeterministic !== true
    )
      return undefined;
    const shared = settings?.shared === true;
    // Read last: the scope may be computed on demand (the gateway hashes the caller's key only for calls that cache).
    const scope = shared ? undefined : context.scope;
    if (!shared && !scope) return undefined;
    return { key: responseCacheKey({ operation, request, scope: shared ? '' : scope! }), ttlMs: ttlS * 1000 };
  }

  /** The entry of `plan`, or undefined (none, expired, unreadable, or the store failed). */
  async get(plan: CachePlan): Promise<CachedResponse | undefined> {
    let text: string | undefined;
    try {
      text = await this.store.get(plan.key);
    } catch {
      return undefined;
    }
    return text === undefined ? undefined : parseCachedResponse(text);
  }

  /**
   * Stores `entry` under `plan` in the background (unless larger than `maxEntryBytes`); never throws. Returns the
   * stored text, or undefined when the entry is not stored.
   */
  save(plan: CachePlan, entry: CachedResponse): string | undefined {
    let text: string;
    try {
      text = serializeCachedResponse(entry);
    } catch {
      return undefined;
    }
    if (Buffer.byteLength(text) > this.#maxEntryBytes) return undefined;
    Promise.resolve()
      .then(() => this.store.set(plan.key, text, plan.ttlMs))
      .catch(() => {});
    return text;
  }

  /**
   * Passes `chunks` through unchanged while keeping a copy, and stores them under `plan` once the stream has ended
   * normally with a `finish_reason` (a failed, cut or oversized stream is not stored).
   */
  async *record(
    plan: CachePlan,
    chunks: AsyncIterable<ChatCompletionChunk>,
    origin: Omit<CachedChunks, 'kind' | 'chunks' | 'storedAt'>,
  ): AsyncGenerator<ChatCompletionChunk> {
    const kept: ChatCompletionChunk[] = [];
    let bytes = 0;
    let finished = false;
    for await (const chunk of chunks) {
      if (bytes <= this.#maxEntryBytes) {
        bytes += JSON.stringify(chunk).length;
        kept.push(chunk);
        if (chunk.choices.some((choice) => typeof choice.finish_reason === 'string')) finished = true;
      }
      yield chunk;
    }
    if (finished && bytes <= this.#maxEntryBytes)
      this.save(plan, { ...origin, kind: 'chunks', chunks: kept, storedAt: Date.now() });
  }
}

/** True when `entry` can answer a request: a stream that asks for usage needs a cached usage chunk. */
export function entryServes(entry: CachedResponse, stream: boolean, includeUsage: boolean): boolean {
  if (stream !== (entry.kind === 'chunks')) return false;
  return !(entry.kind === 'chunks' && includeUsage && !entry.chunks.some((chunk) => chunk.usage));
}

/** Replays cached chunks as a stream (each chunk as stored). */
export async function* replayChunks(entry: CachedChunks): AsyncGenerator<ChatCompletionChunk> {
  for (const chunk of entry.chunks) yield chunk;
}
