import { isIP } from 'node:net';
import { MAX_MODEL_ID_LENGTH, MODEL_CAPABILITIES, MODEL_ID_PATTERN, type ModelCapability } from '@switchyard/core';
import { z } from 'zod';
import { alertsConfigSchema, budgetsConfigSchema } from './budgets-config-schema.js';

/** Whether `entry` is an IP address, or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function isCidrOrAddress(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const bytes = z.number().int().positive();

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
});
const ms = z.number().int().positive();
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
  max_entry_bytes: z
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024),
  memory_bytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
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
  timeout_ms: z.number().int().positive().max(60_000).default(500),
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
    server: z
      .strictObject({
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(8787),
        /** Largest JSON body accepted, bytes or a size string such as `20mb`. */
        body_limit: z.union([z.number().int().positive(), z.string().min(1)]).default('20mb'),
        /** Gateway processes on one port (node:cluster): a number, or `auto` for one per core. Default 1. */
        workers: z.union([z.number().int().positive(), z.literal('auto')]).optional(),
        /** On SIGTERM/SIGINT, how long requests and streams in flight may take to finish, ms. */
        shutdown_timeout_ms: z.number().int().min(0).default(30_000),
        /**
         * Most client connections open at once; beyond it, 32 more for `/healthz` and `/readyz` only. Keep it well below
         * `ulimit -n`.
         */
        max_connections: z.number().int().positive().default(4096),
        /**
         * Most connections open at once from one client address (an IPv6 client: its /64); the client's oldest idle one
         * is closed to make room for a new one. Not applied to `trust_proxy` addresses.
         */
        max_connections_per_client: z.number().int().positive().default(1024),
        /**
         * Addresses or CIDR ranges of reverse proxies in front of the gateway: their connections are not capped per
         * client (every client behind a proxy shares its address; bound them at the proxy).
         */
        trust_proxy: z
          .array(
            z
              .string()
              .refine((entry) => isCidrOrAddress(entry), {
                message: 'an IP address or CIDR range (10.0.0.0/8, fd00::/8)',
              }),
          )
          .default([]),
        /**
         * Connections the kernel completes and queues while the gateway is busy, before it accepts them (the `listen`
         * backlog; Linux caps it at `net.core.somaxconn`). Node's default, 511, reset some of a burst of thousands.
         */
        backlog: z.number().int().positive().default(4096),
        /** A client must send its request headers within this time, ms. */
        headers_timeout_ms: ms.default(20_000),
        /** A client must send its whole request (headers and body) within this time, ms. */
        request_timeout_ms: ms.default(300_000),
        /** A `: keep-alive` comment is sent on a stream idle for this long, ms. */
        stream_keepalive_ms: ms.default(15_000),
        /** A streaming client that reads nothing for this long is disconnected, ms. */
        client_write_timeout_ms: ms.default(60_000),
      })
      .prefault({}),
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
    /**
     * The admin API (`/admin/*`), authenticated by `Authorization: Bearer <master_key>`. Enables accounts.
     * `console`: serve the admin console at `/ui` (default true).
     */
    admin: z
      .strictObject({
        master_key: z.string().min(16, 'the master key must be at least 16 characters'),
        console: z.boolean().default(true),
      })
      .optional(),
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
    /**
     * Stored responses of the Responses API: kept `retention_days` days (and while a later response continues from
     * them); at most `max_stored_bytes_per_key` bytes per key in every store (default 64 MiB; a key's oldest go first);
     * without accounts in memory, at most `max_in_memory` of them and `memory_bytes` bytes in all (default 256 MiB; the
     * oldest go first). Bytes are those of the records' JSON.
     */
    responses: z
      .strictObject({
        retention_days: z.number().positive().default(30),
        max_in_memory: z.number().int().positive().default(1000),
        memory_bytes: z
          .number()
          .int()
          .positive()
          .default(256 * 1024 * 1024),
        max_stored_bytes_per_key: z
          .number()
          .int()
          .positive()
          .default(64 * 1024 * 1024),
      })
      .prefault({}),
    /**
     * `/v1/files`: the bytes of uploaded files live in `dir` (default: the folder `switchyard-files` beside the SQLite
     * file or the config file; a shared volume when replicas share Postgres), metadata in the store. At most `max_bytes`
     * per upload (default 512 MB) and `max_bytes_per_key` stored per key (default 10 GiB).
     */
    files: z
      .strictObject({
        dir: z.string().min(1).optional(),
        max_bytes: z
          .number()
          .int()
          .positive()
          .default(512 * 1024 * 1024),
        max_bytes_per_key: z
          .number()
          .int()
          .positive()
          .default(10 * 1024 * 1024 * 1024),
      })
      .prefault({}),
    /**
     * `/v1/batches` run by the gateway: at most `concurrency` lines at once per deployment (default 4), and none started
     * while `yield_above` live requests are in flight in this process (default 32); at most `max_lines` lines per batch
     * (default 50,000); a claimed line is held `lease_ms` (default 10 minutes) before another replica may take it over;
     * runners look for work every `poll_ms` (default 1,000).
     */
    batches: z
      .strictObject({
        concurrency: z.number().int().positive().max(256).default(4),
        yield_above: z.number().int().positive().default(32),
        max_lines: z.number().int().positive().max(1_000_000).default(50_000),
        lease_ms: ms.default(10 * 60 * 1000),
        poll_ms: ms.default(1_000),
      })
      .prefault({}),
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
    /**
     * `GET /v1/realtime` sessions (WebSocket): `max_session_ms` (default 3,600,000), `idle_timeout_ms` (no event either
     * way; default 300,000), `max_message_bytes` (largest client event; default 16 MiB), `max_buffered_bytes` (queued
     * towards a slow peer before the other side is paused; default 4 MiB), `check_interval_ms` (how often expiry,
     * idleness and revoked keys are checked; default 1,000), `connect_timeout_ms` (the upstream handshake; default 10,000).
     */
    realtime: z
      .strictObject({
        max_session_ms: z.number().int().positive().default(3_600_000),
        idle_timeout_ms: z.number().int().positive().default(300_000),
        max_message_bytes: z
          .number()
          .int()
          .positive()
          .default(16 * 1024 * 1024),
        max_buffered_bytes: z
          .number()
          .int()
          .positive()
          .default(4 * 1024 * 1024),
        check_interval_ms: z.number().int().positive().default(1_000),
        connect_timeout_ms: z.number().int().positive().default(10_000),
      })
      .prefault({}),
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
