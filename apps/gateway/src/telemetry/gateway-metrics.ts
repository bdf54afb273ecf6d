import type { RateLimitKind } from '@switchyard/accounts';
import { type CompletionUsage, GatewayError, type GatewayObserver } from '@switchyard/core';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { LabelLimiter } from './label-limiter.js';

/** What one finished API request contributes to the metrics. */
export interface RequestMetric {
  /** The operation, e.g. `chat.completions`, `embeddings` (see `operationOf`). */
  operation: string;
  /** The model id the client asked for; undefined when it sent none or it did not resolve. */
  model?: string;
  /** The provider that served the call (or would have: the requested model's provider). */
  provider?: string;
  /** HTTP status sent. */
  status: number;
  /** Time from the request's arrival to the end of its response, seconds. */
  durationSeconds: number;
  /** Streams: time from arrival to the first chunk from the upstream, seconds. */
  timeToFirstTokenSeconds?: number;
}

/** Requests (or attempt label sets) recorded between two scrapes before they are moved into prom-client at once. */
const MAX_PENDING = 4096;

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * Switchyard's Prometheus metrics (prom-client, in a registry of their own together with Node's default process
 * metrics). Everything here is a counter increment or a histogram observation made after a response has been sent
 * (request metrics) or from the router's synchronous hooks (attempts, cooldowns): nothing waits on I/O. Labels never
 * hold keys, users or prompts; model and error-code labels are bounded by {@link LabelLimiter}.
 * @see https://prometheus.io/docs/practices/naming/
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #models = new LabelLimiter();
  readonly #codes = new LabelLimiter(200, 64);
  readonly #requests = new Counter({
    name: 'switchyard_requests_total',
    help: 'API requests answered, by operation, requested model, provider and HTTP status.',
    labelNames: ['operation', 'model', 'provider', 'status'] as const,
    registers: [this.registry],
    // Registered first, so this runs before any metric is read: it moves what requests recorded into prom-client.
    collect: () => this.#flush(),
  });
  readonly #duration = new Histogram({
    name: 'switchyard_request_duration_seconds',
    help: 'Time from a request arriving to its response ending, seconds.',
    labelNames: ['operation', 'model', 'provider'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly #ttft = new Histogram({
    name: 'switchyard_time_to_first_token_seconds',
    help: 'Streams: time from a request arriving to the first chunk from the upstream, seconds.',
    labelNames: ['model', 'provider'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly #inflight = new Gauge({
    name: 'switchyard_inflight_requests',
    help: 'API requests being answered now.',
    labelNames: ['operation'] as const,
    registers: [this.registry],
    collect: () => {
      for (const [operation, count] of this.#inflightNow) this.#inflight.set({ operation }, count);
    },
  });
  readonly #tokens = new Counter({
    name: 'switchyard_tokens_total',
    help: 'Tokens reported by upstreams, by type: prompt, completion, cached (prompt tokens read from cache), reasoning.',
    labelNames: ['model', 'provider', 'type'] as const,
    registers: [this.registry],
  });
  readonly #cost = new Counter({
    name: 'switchyard_cost_usd_total',
    help: 'Cost of answered calls at the configured prices, USD.',
    labelNames: ['model', 'provider'] as const,
    registers: [this.registry],
  });
  readonly #attempts = new Counter({
    name: 'switchyard_upstream_attempts_total',
    help: "Upstream attempts by outcome: ok, retry (same deployment again), fallback (next deployment or model), error, hedge_lost (a hedged request's slower attempt, aborted).",
    labelNames: ['provider', 'model', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly #upstreamErrors = new Counter({
    name: 'switchyard_upstream_errors_total',
    help: 'Failed upstream attempts by provider and error code (the OpenAI-style code, else the HTTP status).',
    labelNames: ['provider', 'code'] as const,
    registers: [this.registry],
  });
  readonly #cooldown = new Gauge({
    name: 'switchyard_target_cooldown',
    help: "1 while a deployment's circuit breaker is open and it is skipped, else 0.",
    labelNames: ['provider', 'model'] as const,
    aggregator: 'max',
    registers: [this.registry],
  });
  readonly #rateLimited = new Counter({
    name: 'switchyard_rate_limited_total',
    help: "Calls refused by a key's limits: rpm, tpm, budget, concurrency.",
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly #redisReplicas = new Gauge({
    name: 'switchyard_redis_replicas',
    help: "Gateway processes sharing this Redis, as this process's heartbeat last counted them (each one enforces limit / this many while Redis is unreachable with on_error: open). Absent without Redis.",
    aggregator: 'max',
    registers: [this.registry],
    collect: () => {
      const count = this.redisReplicas?.();
      if (count === undefined) this.#redisReplicas.reset();
      else this.#redisReplicas.set(count);
    },
  });

  readonly #realtimeSessions = new Gauge({
    name: 'switchyard_realtime_sessions',
    help: 'Realtime (WebSocket) sessions open now.',
    registers: [this.registry],
  });
  readonly #realtimeDuration = new Histogram({
    name: 'switchyard_realtime_session_duration_seconds',
    help: 'Duration of ended Realtime sessions, seconds, by provider and why they ended (client_closed, budget_exhausted, upstream_disconnected...).',
    labelNames: ['provider', 'reason'] as const,
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200],
    registers: [this.registry],
  });

  readonly #cache = new Counter({
    name: 'switchyard_cache_requests_total',
    help: 'Calls that used the response cache: answered from it (hit) or fetched and stored (miss).',
    labelNames: ['operation', 'result'] as const,
    registers: [this.registry],
  });

  // The request path only appends to these and bumps plain numbers; prom-client (which hashes a labels object per
  // call) is fed when metrics are read, or when MAX_PENDING requests have piled up between two scrapes.
  readonly #inflightNow = new Map<string, number>();
  #ended: RequestMetric[] = [];
  #attemptCounts = new Map<string, { provider: string; model: string; outcome: string; count: number }>();
  #cacheCounts = new Map<string, number>();
  #usage = new Map<
    string,
    {
      model: string;
      provider: string;
      prompt: number;
      completion: number;
      cached: number;
      reasoning: number;
      cost: number;
    }
  >();

  #flush(): void {
    const ended = this.#ended;
    this.#ended = [];
    for (const metric of ended) {
      const model = this.#models.value(metric.model);
      const provider = metric.provider ?? '';
      this.#requests.inc({ operation: metric.operation, model, provider, status: String(metric.status) });
      this.#duration.observe({ operation: metric.operation, model, provider }, metric.durationSeconds);
      if (metric.timeToFirstTokenSeconds !== undefined)
        this.#ttft.observe({ model, provider }, metric.timeToFirstTokenSeconds);
    }
    const attempts = this.#attemptCounts;
    this.#attemptCounts = new Map();
    for (const { provider, model, outcome, count } of attempts.values())
      this.#attempts.inc({ provider, model: this.#models.value(model), outcome }, count);
    const cacheCounts = this.#cacheCounts;
    this.#cacheCounts = new Map();
    for (const [key, count] of cacheCounts) {
      const [operation, result] = key.split(' ');
      this.#cache.inc({ operation, result }, count);
    }
    const usage = this.#usage;
    this.#usage = new Map();
    for (const sums of usage.values()) {
      const labels = { model: this.#models.value(sums.model), provider: sums.provider };
      for (const type of ['prompt', 'completion', 'cached', 'reasoning'] as const)
        if (sums[type] > 0) this.#tokens.inc({ ...labels, type }, sums[type]);
      if (sums.cost > 0) this.#cost.inc(labels, sums.cost);
    }
  }

  /** @param defaultMetrics also collect Node's default process metrics (`process_*`, `nodejs_*`). Default true. */
  constructor(defaultMetrics = true) {
    if (defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Hooks for `gateway.observe()`: attempt outcomes, upstream error codes and breaker changes. */
  readonly observer: GatewayObserver = {
    attemptEnded: (event) => {
      const key = `${event.provider}\u0000${event.upstreamModel}\u0000${event.outcome}`;
      const counted = this.#attemptCounts.get(key);
      if (counted) counted.count++;
      else
        this.#attemptCounts.set(key, {
          provider: event.provider,
          model: event.upstreamModel,
          outcome: event.outcome,
          count: 1,
        });
      if (this.#attemptCounts.size > MAX_PENDING) this.#flush();
      if (event.outcome !== 'ok' && event.outcome !== 'hedge_lost')
        this.#upstreamErrors.inc({ provider: event.provider, code: this.#codes.value(errorCode(event.error)) });
    },
    cooldownChanged: (event) => {
      this.#cooldown.set(
        { provider: event.provider, model: this.#models.value(event.upstreamModel) },
        event.coolingDown ? 1 : 0,
      );
    },
  };

  /** A request of `operation` started (inflight gauge). */
  requestStarted(operation: string): void {
    this.#inflightNow.set(operation, (this.#inflightNow.get(operation) ?? 0) + 1);
  }

  /** A request ended: counts it, observes its duration and time to first token, and ends its inflight share. */
  requestEnded(metric: RequestMetric): void {
    this.#inflightNow.set(metric.operation, (this.#inflightNow.get(metric.operation) ?? 1) - 1);
    this.#ended.push(metric);
    if (this.#ended.length >= MAX_PENDING) this.#flush();
  }

  /** Adds a call's usage (tokens) and cost (USD). */
  usage(model: string, provider: string, usage: Partial<CompletionUsage>, costUsd: number): void {
    const key = `${model}\u0000${provider}`;
    let sums = this.#usage.get(key);
    if (!sums)
      this.#usage.set(key, (sums = { model, provider, prompt: 0, completion: 0, cached: 0, reasoning: 0, cost: 0 }));
    const add = (value: number | null | undefined) => (typeof value === 'number' && value > 0 ? value : 0);
    sums.prompt += add(usage.prompt_tokens);
    sums.completion += add(usage.completion_tokens);
    sums.cached += add(usage.prompt_tokens_details?.cached_tokens);
    sums.reasoning += add(usage.completion_tokens_details?.reasoning_tokens);
    sums.cost += add(costUsd);
    if (this.#usage.size > MAX_PENDING) this.#flush();
  }

  /** A call of `operation` (e.g. `chat.completions`) that used the response cache: `hit` or `miss`. */
  cacheLookup(operation: string, result: 'hit' | 'miss'): void {
    const key = `${operation} ${result}`;
    this.#cacheCounts.set(key, (this.#cacheCounts.get(key) ?? 0) + 1);
  }

  /** A Realtime session opened. */
  realtimeSessionStarted(): void {
    this.#realtimeSessions.inc();
  }

  /** A Realtime session ended after `durationSeconds`, for `reason` (see `RealtimeEndReason`). */
  realtimeSessionEnded(provider: string, reason: string, durationSeconds: number): void {
    this.#realtimeSessions.dec();
    this.#realtimeDuration.observe({ provider, reason }, durationSeconds);
  }

  /** A call refused by a key's limit. */
  rateLimited(kind: RateLimitKind): void {
    this.#rateLimited.inc({ kind });
  }

  /** With Redis: how many gateway processes its heartbeat last counted (see `SwitchyardRedis.replicas`). */
  redisReplicas?: () => number | undefined;

  /** In a cluster worker: fetches the whole cluster's exposition (see `clusterMetricsClient`). */
  cluster?: () => Promise<string>;

  /** The Prometheus text exposition (of every worker when {@link cluster} is set) and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    this.#flush();
    return {
      contentType: this.registry.contentType,
      body: this.cluster ? await this.cluster() : await this.registry.metrics(),
    };
  }
}

function errorCode(error: unknown): string {
  if (GatewayError.isInstance(error)) return error.code ?? String(error.status);
  return 'unknown';
}
