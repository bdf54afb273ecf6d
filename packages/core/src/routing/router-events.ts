/**
 * What an upstream attempt ended as:
 * - `ok`: it answered (for streams: the stream ended whole; reported when it ends);
 * - `retry`: it failed retryably and the same deployment is tried again;
 * - `fallback`: it failed retryably and the next deployment (another target or a fallback model) is tried (a stream
 *   that broke mid-way and was continued elsewhere, `stream_failover`, included);
 * - `error`: it failed and nothing else is tried (not retryable, retries exhausted, deadline or client gone; a stream
 *   that broke mid-way or was cut by the client included);
 * - `hedge_lost`: a hedged request's other attempt answered first, and this one was aborted.
 */
export type AttemptOutcome = 'ok' | 'retry' | 'fallback' | 'error' | 'hedge_lost';

/** One upstream attempt as it starts. */
export interface AttemptStartEvent {
  /** The gateway operation, e.g. `chatCompletions`, `embeddings`. */
  operation: string;
  /** The gateway's request id. */
  requestId: string;
  /** The model id the client asked for. */
  requestedModel: string;
  /** The model id this attempt serves (the requested one or a fallback model's id). */
  model: string;
  /** Provider name from config. */
  provider: string;
  /** The upstream's model id. */
  upstreamModel: string;
  /** 1-based number of this attempt within the request (retries and fallbacks counted). */
  attempt: number;
  /** True when the attempt serves a fallback model rather than the requested one. */
  fallback: boolean;
}

/** One upstream attempt once its outcome is known. */
export interface AttemptEndEvent extends AttemptStartEvent {
  outcome: AttemptOutcome;
  /** Time from the attempt's start to its answer (first chunk for streams) or failure (a stream's break), ms. */
  durationMs: number;
  /** The failure (a GatewayError in most cases) when `outcome` is not `ok`. */
  error?: unknown;
}

/** A deployment's circuit breaker opened (`coolingDown: true`, it is skipped) or closed again. */
export interface CooldownEvent {
  /** The deployment's identity: `<provider>/<upstream model>`. */
  key: string;
  provider: string;
  upstreamModel: string;
  coolingDown: boolean;
}

/** What an observer may hand back when an attempt starts. */
export interface AttemptStartResult {
  /**
   * Extra headers for the upstream request of this attempt, e.g. W3C `traceparent`/`tracestate`. Adapters send
   * `context.headers` with their request.
   */
  headers?: Record<string, string>;
}

/**
 * Hooks into the router, for metrics and traces: each is called synchronously on the request path, so it must be
 * cheap (increment a counter, start a span) and must not throw (a throwing observer is ignored).
 * Register with `gateway.observe(observer)`.
 */
export interface GatewayObserver {
  /** An upstream attempt starts; may return upstream headers for it (trace context). */
  attemptStarted?(event: AttemptStartEvent): AttemptStartResult | undefined;
  /** An upstream attempt ended with `event.outcome`. */
  attemptEnded?(event: AttemptEndEvent): void;
  /** A deployment's breaker opened or closed. */
  cooldownChanged?(event: CooldownEvent): void;
}
