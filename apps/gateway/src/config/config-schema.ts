import { MAX_MODEL_ID_LENGTH, MODEL_CAPABILITIES, MODEL_ID_PATTERN, type ModelCapability } from '@switchyard/core';
import { z } from 'zod';
import { adminConfigSchema } from './admin-config-schema.js';
import { alertsConfigSchema, budgetsConfigSchema } from './budgets-config-schema.js';
import { batchesConfigSchema, filesConfigSchema } from './files-config-schema.js';
import { realtimeConfigSchema } from './realtime-config-schema.js';
import { responsesConfigSchema } from './responses-config-schema.js';
import { bytes, ms } from './schema-units.js';
import { serverConfigSchema } from './server-config-schema.js';

/**
 * `providers.<name>.limits`: the most the gateway reads from this upstream, bytes. `max_response_bytes` (a whole
 * non-streamed answer, default 64 MiB), `max_event_bytes` (one stream event, default 8 MiB), `max_error_bytes` (an error
 * answer, default 64 KiB). Over a limit the client gets 502 `upstream_response_too_large` naming the provider and limit.
 */
export const providerLimitsSchema = z.strictObject({
  max_response_bytes: bytes.optional(),
  max_event_bytes: bytes.optional(),
  max_error_bytes: bytes.optional(),
});

/**
 * `providers.<name>`: the adapter (built-in name or npm package), the gateway's own per-provider settings (`limits`,
 * `stream_usage`: ask the upstream for usage in every stream, default true; turn it off for servers that reject
 * `stream_options`, and tokens are then counted by the gateway), plus the adapter's own settings (snake_case).
 */
export const providerConfigSchema = z.looseObject({
  adapter: z.string().min(1),
  limits: providerLimitsSchema.optional(),
  stream_usage: z.boolean().optional(),
});

/** USD per million input (prompt) and output (completion) tokens. */
/** Prices in USD per million tokens; the cache and reasoning prices default to `input` / `output`. */
const priceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cached_input: z.number().nonnegative().optional(),
  cache_write: z.number().nonnegative().optional(),
  reasoning: z.number().nonnegative().optional(),
  /** Factor applied to the cost of `/v1/batches` lines (0.5: half price); default 1 for gateway-run batches, 0.5 for native ones. */
  batch_discount: z.number().nonnegative().max(1).optional(),
  /** Realtime audio input tokens; default `input`. */
  audio_input: z.number().nonnegative().optional(),
  /** Realtime audio input tokens read from the cache; default `cached_input`, then `audio_input`. */
  cached_audio_input: z.number().nonnegative().optional(),
  /** Realtime audio output tokens; default `output`. */
  audio_output: z.number().nonnegative().optional(),
  /** USD per image by `<quality>/<size>`, `<size>`, `<quality>` or `default` (images calls are then priced per image). */
  images: z.record(z.string().max(64), z.number().nonnegative()).optional(),
});
/** Per-call timeouts, ms. */
const timeoutsSchema = z.strictObject({
  first_byte_ms: ms.optional(),
  idle_ms: ms.optional(),
  total_ms: ms.optional(),
});

/**
 * `models[].cache`: the response cache for this model. `ttl_s` caches every cacheable request (chat, streamed or not;
 * embeddings) for that many seconds (unset: only requests with `x-switchyard-cache: <seconds>` are cached); `shared`
 * lets every calling key read the same entries (default false: each key sees only its own); `nondeterministic` also
 * caches requests that set `temperature` above 0 (default false: never cached).
 */
export const modelCacheConfigSchema = z.strictObject({
  ttl_s: z.number().int().positive().optional(),
  shared: z.boolean().default(false),
  nondeterministic: z.boolean().default(false),
});

/**
 * `cache`: the response cache's store and bounds. Entries live in Redis when `redis.url` is set, else in an in-process
 * LRU of at most `memory_bytes` (default 64 MiB; two bytes per character of key and entry). `max_ttl_s` caps the TTL
 * a request asks for with `x-switchyard-cache` (default 3,600); answers larger than `max_entry_bytes` (default 4 MiB)
 * are not cached. `enabled: false` turns the cache off (headers included).
 */
export const cacheConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  max_ttl_s: z.number().int().positive().default(3_600),
  max_entry_bytes: bytes.default(4 * 1024 * 1024),
  memory_bytes: bytes.default(64 * 1024 * 1024),
});

/**
 * Hedged requests (opt-in per model): `after_ms` (fixed delay, ms) and/or `after` (a percentile of the deployment's
 * observed time to first byte; `after_ms`, else 1,000 ms, until 20 samples exist).
 */
const hedgeSchema = z
  .strictObject({ after_ms: ms.optional(), after: z.enum(['p50', 'p75', 'p90', 'p95', 'p99']).optional() })
  .refine((h) => h.after_ms !== undefined || h.after !== undefined, { message: "give 'after_ms' or 'after'" });

/** One deployment of a model. */
export const targetConfigSchema = z.strictObject({
  provider: z.string().min(1),
  upstream: z.string().min(1).optional(),
  weight: z.number().positive().default(1),
  price: priceSchema.optional(),
  capabilities: z.array(z.enum(MODEL_CAPABILITIES as [ModelCapability, ...ModelCapability[]])).optional(),
  /** Most requests in flight to this deployment at once (streams count until they end). */
  max_concurrency: z.number().int().positive().optional(),
});

/** A model id of config: what a client may send (printable ASCII without spaces, at most 256 characters). */
const modelNameSchema = z
  .string()
  .min(1)
  .max(MAX_MODEL_ID_LENGTH)
  .regex(MODEL_ID_PATTERN, 'model ids are printable ASCII characters without spaces');

/**
 * One entry of `models`: what clients send (`id`; with `*`, a pattern: any id it matches is served with that id as the
 * upstream id, e.g. `claude-*`; exact ids win over patterns, the longest pattern among patterns), served by one `provider` (+ `upstream`) or by several `targets`
 * balanced by `strategy`, with ordered `fallbacks` (other model ids), `max_retries`, `timeouts` and `price`.
 */
export const modelConfigSchema = z
  .strictObject({
    id: modelNameSchema,
    /** The name model lists show (Anthropic's `display_name`); default: the catalogue's name, else one derived from `id`. */
    display_name: z.string().min(1).max(256).optional(),
    provider: z.string().min(1).optional(),
    upstream: z.string().min(1).optional(),
    targets: z.array(targetConfigSchema).min(1).optional(),
    strategy: z.enum(['weighted', 'round-robin', 'least-busy', 'lowest-latency']).default('weighted'),
    fallbacks: z.array(z.string().min(1)).default([]),
    max_retries: z.number().int().min(0).max(10).optional(),
    timeouts: timeoutsSchema.optional(),
    price: priceSchema.optional(),
    /** What the model's deployments can do (`tools`, `vision`, `json_schema`, `audio`, `reasoning`); a target's own list wins. */
    capabilities: z.array(z.enum(MODEL_CAPABILITIES as [ModelCapability, ...ModelCapability[]])).optional(),
    /** Most requests in flight at once to each of the model's deployments (a target's own value wins). */
    max_concurrency: z.number().int().positive().optional(),
    /** The response cache for this model (see {@link modelCacheConfigSchema}). */
    cache: modelCacheConfigSchema.optional(),
    /** Hedged requests: a second deployment is started when the first sent no first byte after this long. */
    hedge: hedgeSchema.optional(),
    /** Mid-stream failover: a chat stream that breaks after content was sent continues on the next deployment. */
    stream_failover: z.boolean().optional(),
  })
  .refine((m) => (m.provider === undefined) !== (m.targets === undefined), {
    message: "give either 'provider' or 'targets'",
    path: ['provider'],
  })
  .refine((m) => !m.id.includes('*') || m.display_name === undefined, {
    message: 'a pattern serves many models; give display_name on exact ids only',
    path: ['display_name'],
  })
  .refine((m) => !m.id.includes('*') || m.upstream === undefined, {
    message: "a pattern's upstream id is the id the client asked for; remove 'upstream'",
    path: ['upstream'],
  })
  .refine((m) => !m.id.includes('*') || !m.targets?.some((t) => t.upstream !== undefined), {
    message: "a pattern's upstream id is the id the client asked for; remove the targets' 'upstream'",
    path: ['targets'],
  });

/** Gateway-wide retries, backoff, cooldown, timeouts and the ceilings of per-request overrides. */
export const routingConfigSchema = z.strictObject({
  max_retries: z.number().int().min(0).max(10).default(2),
  backoff: z.strictObject({ base_ms: ms.default(200), max_ms: ms.default(8_000) }).prefault({}),
  cooldown: z
    .strictObject({
      failures: z.number().int().positive().default(3),
      seconds: z.number().positive().default(30),
      shared: z.boolean().default(false),
    })
    .prefault({}),
  timeouts: z
    .strictObject({
      connect_ms: ms.default(10_000),
      first_byte_ms: ms.default(120_000),
      idle_ms: ms.default(60_000),
      total_ms: ms.default(600_000),
    })
    .prefault({}),
  ceilings: z
    .strictObject({ max_retries: z.number().int().min(0).default(5), timeout_ms: ms.default(600_000) })
    .prefault({}),
  /** How long a request waits for a slot when every deployment is at its `max_concurrency`, ms (0: 429 at once). */
  queue_ms: z.number().int().min(0).default(0),
});

/**
 * `redis`: shared limits (rpm, tpm, budgets' running spend), key changes and, with `routing.cooldown.shared`, breaker
 * state. `url` (`redis://` or `rediss://`), `key_prefix` (default `switchyard:`), `on_error` (`open` keeps serving
 * unlimited while Redis is unreachable, `closed` answers 503 `limits_unavailable`; default `open`), `timeout_ms` per
 * Redis command (default 500).
 */
export const redisConfigSchema = z.strictObject({
  url: z.string().regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL'),
  key_prefix: z.string().max(100).default('switchyard:'),
  on_error: z.enum(['open', 'closed']).default('open'),
  timeout_ms: ms.max(60_000).default(500),
});

/** `store`: exactly one of `sqlite` or `postgres`. */
export const storeConfigSchema = z
  .strictObject({
    sqlite: z.string().min(1).optional(),
    postgres: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'a postgres:// or postgresql:// URL')
      .optional(),
    timeout_ms: ms.default(5_000),
    ledger_buffer: z.number().int().positive().default(100_000),
  })
  .refine((s) => !(s.sqlite && s.postgres), {
    message: "give either 'sqlite' or 'postgres', not both",
    path: ['postgres'],
  });

/**
 * The gateway's YAML config (after `${VAR}` substitution):
 * `server {host, port, body_limit, workers, shutdown_timeout_ms, max_connections, max_connections_per_client, trust_proxy, backlog, headers_timeout_ms,
 * request_timeout_ms, stream_keepalive_ms, client_write_timeout_ms}`, `keys` (gateway-issued bearer keys), `providers`, `models`, `aliases`,
 * `routing`, `admin`, `store`, `redis`, `cache {enabled, max_ttl_s, max_entry_bytes, memory_bytes}`, `responses {retention_days, max_in_memory, memory_bytes, max_stored_bytes_per_key}`, `log {level, format}`, `metrics {enabled, auth}`,
 * `telemetry {otlp_endpoint, service_name, capture_content}`.
 */
export const gatewayConfigSchema = z
  .strictObject({
    /** The HTTP server (see {@link serverConfigSchema}). */
    server: serverConfigSchema,
    keys: z.array(z.string().min(16, 'gateway keys must be at least 16 characters')).default([]),
    providers: z.record(
      z.string().regex(/^[A-Za-z0-9_.-]+$/, 'provider names use letters, digits, _ . -'),
      providerConfigSchema,
    ),
    models: z.array(modelConfigSchema).default([]),
    /**
     * Other names clients may use: `<alias>: <model>`, where `<model>` is a configured model id, an id matching a model
     * pattern, or `<provider>/<upstream id>` (never another alias). The alias is routed, priced, limited and allow-listed
     * as the model it names.
     */
    aliases: z.record(z.string(), modelNameSchema).default({}),
    routing: routingConfigSchema.prefault({}),
    /** The admin API, console and single sign-on (see {@link adminConfigSchema}). Enables accounts. */
    admin: adminConfigSchema.optional(),
    /**
     * Where accounts (virtual keys, usage ledger) live: `sqlite` (a file, or `:memory:`; one process) or `postgres` (a
     * `postgres://` URL; shared by replicas and workers), with `timeout_ms` per store call (default 5,000) and
     * `ledger_buffer` (ledger rows kept while the store is unreachable, default 100,000). Enables accounts.
     */
    store: storeConfigSchema.optional(),
    /** Budget periods' reset time zone and the session header (see {@link budgetsConfigSchema}). */
    budgets: budgetsConfigSchema,
    /** Budget threshold webhooks (see {@link alertsConfigSchema}); needs accounts. */
    alerts: alertsConfigSchema.optional(),
    /** Shared limits and key changes for several replicas or workers (see {@link redisConfigSchema}). */
    redis: redisConfigSchema.optional(),
    /** The response cache (see {@link cacheConfigSchema}); models and requests opt in. */
    cache: cacheConfigSchema.prefault({}),
    /** Stored responses of the Responses API (see {@link responsesConfigSchema}). */
    responses: responsesConfigSchema,
    /** `/v1/files` (see {@link filesConfigSchema}). */
    files: filesConfigSchema,
    /** `/v1/batches` run by the gateway (see {@link batchesConfigSchema}). */
    batches: batchesConfigSchema,
    /**
     * Log `level`, and `format`: `json` (one object per line), `pretty` (pino-pretty, for people), or `auto` (pretty
     * when stdout is a terminal, JSON otherwise).
     */
    log: z
      .strictObject({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
        format: z.enum(['auto', 'json', 'pretty']).default('auto'),
      })
      .prefault({}),
    /** `GET /v1/realtime` sessions (see {@link realtimeConfigSchema}). */
    realtime: realtimeConfigSchema,
    /** `GET /metrics` (Prometheus text format): on by default; `auth: master` requires the admin master key. */
    metrics: z
      .strictObject({ enabled: z.boolean().default(true), auth: z.enum(['none', 'master']).default('none') })
      .prefault({}),
    /**
     * OpenTelemetry traces over OTLP/HTTP, on when `otlp_endpoint` (or `OTEL_EXPORTER_OTLP_ENDPOINT`) is set.
     * `capture_content: true` adds prompts and completions to spans (off by default).
     */
    telemetry: z
      .strictObject({
        otlp_endpoint: z.url().optional(),
        service_name: z.string().min(1).default('switchyard'),
        capture_content: z.boolean().default(false),
      })
      .prefault({}),
  })
  .refine((c) => c.keys.length > 0 || c.admin !== undefined, {
    message: 'at least one gateway key is required (or an admin master key, to issue virtual keys)',
    path: ['keys'],
  })
  .refine((c) => c.metrics.auth !== 'master' || c.admin !== undefined, {
    message: "metrics.auth 'master' needs admin.master_key",
    path: ['metrics', 'auth'],
  })
  .refine((c) => !c.routing.cooldown.shared || c.redis !== undefined, {
    message: 'a shared cooldown needs redis.url (the breaker state travels through Redis)',
    path: ['routing', 'cooldown', 'shared'],
  });

/** The validated gateway config. */
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
/** One validated model entry. */
export type ModelConfig = z.infer<typeof modelConfigSchema>;
/** One validated provider block. */
export type ProviderConfig = z.infer<typeof providerConfigSchema>;
