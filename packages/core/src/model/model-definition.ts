import type { ModelCapability } from '../adapter/model-capability.js';
import type { ModelCacheSettings } from './cache-settings.js';

/** Price of a model in USD per million tokens. */
export interface ModelPrice {
  /** USD per 1,000,000 prompt (input) tokens. */
  input: number;
  /** USD per 1,000,000 completion (output) tokens. */
  output: number;
  /** USD per 1,000,000 prompt tokens read from the prompt cache (`cached_tokens`); default `input`. */
  cached_input?: number;
  /** USD per 1,000,000 prompt tokens written to the prompt cache (`cache_write_tokens`); default `input`. */
  cache_write?: number;
  /** USD per 1,000,000 reasoning tokens (`reasoning_tokens`, part of the completion); default `output`. */
  reasoning?: number;
  /** Factor on the cost of `/v1/batches` lines (0.5: half price); default 1 for batches the gateway runs itself. */
  batch_discount?: number;
  /** USD per 1,000,000 audio input tokens (Realtime `input_token_details.audio_tokens`); default `input`. */
  audio_input?: number;
  /** USD per 1,000,000 audio input tokens read from the cache (`cached_tokens_details.audio_tokens`); default `cached_input`. */
  cached_audio_input?: number;
  /** USD per 1,000,000 audio output tokens (Realtime `output_token_details.audio_tokens`); default `output`. */
  audio_output?: number;
  /**
   * USD per image of image generations, edits and variations, by `<quality>/<size>` (e.g. `high/1024x1536`), `<size>`,
   * `<quality>` or `default` (looked up in that order); when one applies, an images call costs the images the upstream
   * returned (`CallSettlement.images`) at that price, not its tokens.
   */
  images?: Record<string, number>;
}

/** How one model's deployments are chosen: see {@link orderTargets}. */
export type BalancingStrategy = 'weighted' | 'round-robin' | 'least-busy' | 'lowest-latency';

/** Timeouts of one call, ms. Unset fields fall back to the gateway's defaults. */
export interface CallTimeouts {
  /** From sending the request to the first byte of the answer (the first chunk of a stream). */
  firstByteMs?: number;
  /** Longest gap between two chunks of a stream. */
  idleMs?: number;
  /** The whole call, all retries and fallbacks included. */
  totalMs?: number;
}

/**
 * Hedged requests of one model (opt-in): when an attempt has sent no first byte after the hedge delay, the next
 * deployment is started in parallel; the first to answer wins and the other is aborted. At most one extra attempt per
 * request. The delay is `after_ms` (ms), or with `after` a percentile of the waiting deployment's observed time to
 * first byte (its last {@link FIRST_BYTE_SAMPLES} successes); until it has {@link MIN_FIRST_BYTE_SAMPLES} of them,
 * `afterMs` when given, else {@link DEFAULT_HEDGE_AFTER_MS}.
 */
export interface HedgePolicy {
  /** Fixed hedge delay, ms; with `after`, the delay used until enough samples exist. */
  afterMs?: number;
  /** Hedge after this percentile of the deployment's observed time to first byte. */
  after?: 'p50' | 'p75' | 'p90' | 'p95' | 'p99';
}

/** One deployment serving a model: a provider (config name), its model id, and a balancing weight (default 1). */
export interface ModelTargetDefinition {
  provider: string;
  /** The upstream's model id. Defaults to the model's `id`. */
  upstream?: string;
  /** Relative share of traffic under the `weighted` strategy. Default 1. */
  weight?: number;
  /** Overrides the model's price for this deployment, USD per million tokens. */
  price?: ModelPrice;
  /** What this deployment can do; overrides the model's `capabilities`. Unset: assumed able to do everything. */
  capabilities?: readonly ModelCapability[];
  /** Most requests in flight to this deployment at once (streams count until they end); overrides the model's. */
  maxConcurrency?: number;
}

/**
 * A model clients may ask for by `id`. Either one deployment (`provider` + optional `upstream`, the shorthand) or
 * several `targets` balanced by `strategy`; `fallbacks` are other model ids tried in order when every target failed.
 */
export interface ModelDefinition {
  id: string;
  /** A human-readable name for model lists (Anthropic's `display_name`), e.g. `Claude Sonnet 4.5`. Not for patterns. */
  displayName?: string;
  /** Shorthand for a single target. */
  provider?: string;
  /** Shorthand target's upstream model id (defaults to `id`). */
  upstream?: string;
  targets?: readonly ModelTargetDefinition[];
  strategy?: BalancingStrategy;
  fallbacks?: readonly string[];
  /** Retries per target of retryable failures (overrides the gateway default). */
  maxRetries?: number;
  timeouts?: CallTimeouts;
  price?: ModelPrice;
  /**
   * What every deployment of this model can do (a target's own list wins); requests needing something else skip it.
   * Unset: assumed able to do everything. See {@link ModelCapability}.
   */
  capabilities?: readonly ModelCapability[];
  /** Most requests in flight at once to each of this model's deployments (a target's own value wins). Unset: no cap. */
  maxConcurrency?: number;
  /** The response cache for this model (TTL, sharing between keys, non-zero temperatures); unset: requests opt in. */
  cache?: ModelCacheSettings;
  /** Hedged requests (opt-in); see {@link HedgePolicy}. */
  hedge?: HedgePolicy;
  /**
   * Mid-stream failover (opt-in): a streamed chat that breaks after content reached the client continues on the next
   * deployment, spliced into the same client stream. See `continueStream` in `stream-failover.ts`.
   */
  streamFailover?: boolean;
}
