import type { Dispatcher } from 'undici';
import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { CacheDirective, CacheStatus } from '../model/cache-settings.js';
import type { ResponseCacheOptions } from '../cache/response-cache.js';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import type { AttemptRecord } from '../routing/execute-plan.js';
import type { RoutingPolicy } from '../routing/routing-policy.js';
import type { SharedCooldown } from '../routing/target-health.js';
import type { UpstreamBodyLimits } from '../utils/upstream-body-limits.js';
import type { CallAccounting, CallLabels } from '../accounting/call-accounting.js';
import type { CallTimeouts, ModelDefinition } from '../model/model-definition.js';
import type { RouteTarget } from '../model/route-plan.js';
import type { StreamSummary } from './wrap-chunk-stream.js';

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /** Adapters by provider name, e.g. `{ openai: createOpenAI({...}) }`. */
  providers: Record<string, ProviderAdapter>;
  /** Model ids clients may send, each mapped to a provider. `<provider>/<upstream id>` always works too. */
  models?: readonly ModelDefinition[];
  /**
   * Other names of models: alias -> the model id it stands for (a configured id, a match of a pattern model, or
   * `<provider>/<id>`). See `ModelRouter` for the order of resolution.
   */
  aliases?: Readonly<Record<string, string>>;
  /** The gateway's own API keys (`Authorization: Bearer <key>`); never upstream keys. */
  keys?: readonly string[];
  /** How long provider model lists are cached, ms. Default 60,000. */
  modelListTtlMs?: number;
  /** Called with failures that do not fail a request (a provider's model list). */
  onBackgroundError?: (error: unknown, provider: string) => void;
  /** Retries, backoff, cooldown, timeouts (ms) and override ceilings; defaults in DEFAULT_ROUTING_POLICY. */
  routing?: Partial<Omit<RoutingPolicy, 'timeouts'>> & { timeouts?: CallTimeouts };
  /**
   * Admission and metering (virtual keys, limits, ledger), e.g. `(await Accounts.open({...})).accounting` from
   * `@switchyard/accounts`. Without it, {@link Gateway.authenticate} checks `keys` and calls are not metered.
   */
  accounting?: CallAccounting;
  /** The gateway's own settings per provider name (body limits, stream usage). */
  providerSettings?: Record<string, ProviderSettings>;
  /** TCP + TLS connect timeout of this gateway's upstream connection pool, ms. Default 10,000. */
  connectTimeoutMs?: number;
  /** Use this dispatcher for upstream calls instead of the gateway's own pool (tests, proxies). */
  dispatcher?: Dispatcher;
  /** Deadline of one provider's model list for `GET /v1/models`, ms. Default 10,000. */
  modelListTimeoutMs?: number;
  /** Shares circuit-breaker state with other replicas (`routing.cooldown.shared`; e.g. `SwitchyardRedis`). */
  sharedCooldown?: SharedCooldown;
  /**
   * The response cache of chat completions and embeddings (see `ResponseCache`): its store (default: an in-process
   * LRU of 64 MiB), the longest TTL a request may ask for and the largest entry. `false` turns it off. Models opt in
   * with {@link ModelDefinition.cache}, requests with {@link GatewayCallOptions.cache}.
   */
  responseCache?: ResponseCacheOptions | false;
}

/** The gateway's own settings for one provider (not the adapter's). */
export interface ProviderSettings {
  /** Most bytes read from this upstream: see {@link UpstreamBodyLimits}. */
  limits?: UpstreamBodyLimits;
  /**
   * Ask the upstream for usage in every chat stream (`stream_options.include_usage: true`, stripped again when the
   * client did not ask). Default true; turn it off for OpenAI-compatible servers that reject `stream_options`: the
   * stream then carries no usage and the gateway counts tokens itself.
   */
  streamUsage?: boolean;
}

/** Per-call options: the client's abort signal and the request id used for correlation. */
export interface GatewayCallOptions {
  signal?: AbortSignal;
  requestId?: string;
  /** Per-request retry count (e.g. from `x-switchyard-max-retries`); can only lower the model's (or routing's) own. */
  maxRetries?: number;
  /** Per-request total deadline, ms (e.g. from `x-switchyard-timeout-ms`); can only lower the model's (or routing's) own. */
  timeoutMs?: number;
  /** Who calls: what {@link Gateway.authenticate} returned. Required for admission when `accounting` is set. */
  caller?: unknown;
  /** The request's wish for the response cache (e.g. from `x-switchyard-cache`): a TTL in seconds, or `'no-cache'`. */
  cache?: CacheDirective;
  /**
   * Who the caller is for the response cache (e.g. a hash of its key): entries of models without `cache.shared` are
   * only served to the same scope. Without it, only models with `cache.shared` use the cache. Read only by a call
   * that would use the cache, so it may be a getter that computes it on demand.
   */
  cacheScope?: string;
  /**
   * Streamed calls only: called once, as soon as the first upstream accepted the call (its status and headers arrived),
   * before its first chunk - from then on the caller may send the response headers and keep-alive comments, so that a
   * model thinking for a minute keeps its connection. The call may still fail afterwards (that attempt breaks off before its
   * first chunk and no retry or fallback succeeds): it then rejects as usual, and a caller that has sent its headers
   * must end the stream with an error event. Retries after it stay invisible to the client.
   */
  onAccepted?: (accepted: AcceptedCall) => void;
  /**
   * Headers of the client's request to send on to the upstream (e.g. Codex's `session-id`, `originator` and
   * `x-codex-*` on the Responses pass-through): added to every attempt's upstream request (`AdapterCallContext.headers`),
   * below the adapter's own headers (authentication, content type), which win on a clash.
   */
  upstreamHeaders?: Record<string, string>;
  /**
   * Client headers to forward to a pass-through upstream (lower-case names; e.g. `anthropic-beta`), given to the
   * adapter as `AdapterCallContext.clientHeaders` (unlike `upstreamHeaders`, the adapter decides how each reaches its
   * upstream: Bedrock takes betas in the body). The front door picks them.
   */
  clientHeaders?: Readonly<Record<string, string>>;
  /** The client's labels of the call (session, agent), recorded on its ledger row under accounting. */
  labels?: CallLabels;
}

/** The answer of one gateway call plus what the gateway did: which provider and upstream model served it. */
export interface GatewayCallResult<T> {
  data: T;
  /** The model id the client asked for. */
  model: string;
  /** The model id that served it: the requested one or one of its fallbacks. */
  servedModel: string;
  /** Upstream attempts made (retries and fallbacks included). */
  attempts: number;
  /** What happened to each attempt (for failed calls see `attemptRecordsOf(error)`): accepted attempts may cost money. */
  attemptRecords: AttemptRecord[];
  /** The provider name from config that served the call. */
  provider: string;
  /** The upstream's model id. */
  upstreamModel: string;
  /** Things adapters changed about the request (dropped parameters...). */
  warnings: GatewayWarning[];
  /** Where it went (includes the configured price, USD per million tokens). */
  target: RouteTarget;
  /**
   * For streams: resolves when the stream has ended (completed, failed or closed by the client) with the last usage
   * the upstream reported (the gateway asks for it even when the client did not, and strips it again).
   */
  finished?: Promise<StreamSummary>;
  /** Headers from admission (OpenAI's `x-ratelimit-*`) and metering, empty without accounting. */
  headers: Record<string, string>;
  /** Cost of the call in USD when known at once (non-streamed answers under accounting). */
  costUsd?: number;
  /** `hit` when the answer came from the response cache, `miss` when it used the cache but was fetched; else unset. */
  cache?: CacheStatus;
}

/**
 * What the gateway knows about a streamed call once an upstream accepted it (status below 400, headers in), before its
 * first chunk: who accepted it, after how many attempts, the adapter's warnings and the accounting headers
 * (`x-ratelimit-*`). See {@link GatewayCallOptions.onAccepted}.
 */
export type AcceptedCall = Pick<
  GatewayCallResult<unknown>,
  'provider' | 'servedModel' | 'upstreamModel' | 'attempts' | 'warnings' | 'headers'
>;
