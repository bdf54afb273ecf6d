import {
  type CallAccounting,
  type Gateway,
  LruResponseCacheStore,
  type ModelDefinition,
  type ProviderSettings,
  type ResponseCacheStore,
  type SharedCooldown,
  createGateway,
} from '@switchyard/core';
import type { GatewayConfig, ModelConfig } from './config/config-schema.js';
import { ProviderSet } from './providers/create-providers.js';

/** Options of {@link buildGateway}. */
export interface BuildGatewayOptions {
  /** Where third-party adapter packages are resolved from. Default: `process.cwd()`. */
  cwd?: string;
  /** Called with non-fatal background failures (a provider's model list). */
  onBackgroundError?: (error: unknown, provider: string) => void;
  /** Admission and metering of calls (`accounts.accounting` from `@switchyard/accounts`). */
  accounting?: CallAccounting;
  /** Breaker state shared with other replicas (`routing.cooldown.shared`). */
  sharedCooldown?: SharedCooldown;
  /** The provider adapters, built already (to reload their secrets later); default: built here from `config.providers`. */
  providerSet?: ProviderSet;
  /** Where the response cache lives (Redis when `redis.url` is set). Default: an in-process LRU of `cache.memory_bytes`. */
  responseCacheStore?: ResponseCacheStore;
}

/** Converts a config model entry (snake_case) to core's {@link ModelDefinition}. */
export function toModelDefinition(model: ModelConfig): ModelDefinition {
  return {
    id: model.id,
    displayName: model.display_name,
    provider: model.provider,
    upstream: model.upstream,
    targets: model.targets?.map(({ max_concurrency, ...target }) => ({ ...target, maxConcurrency: max_concurrency })),
    strategy: model.strategy,
    fallbacks: model.fallbacks,
    maxRetries: model.max_retries,
    timeouts: model.timeouts && {
      firstByteMs: model.timeouts.first_byte_ms,
      idleMs: model.timeouts.idle_ms,
      totalMs: model.timeouts.total_ms,
    },
    price: model.price,
    capabilities: model.capabilities,
    maxConcurrency: model.max_concurrency,
    cache: model.cache && {
      ttlS: model.cache.ttl_s,
      shared: model.cache.shared,
      nondeterministic: model.cache.nondeterministic,
    },
    hedge: model.hedge && { afterMs: model.hedge.after_ms, after: model.hedge.after },
    streamFailover: model.stream_failover,
  };
}

/** Creates the framework-free {@link Gateway} from a validated config. Throws ConfigError on provider problems. */
export async function buildGateway(config: GatewayConfig, options: BuildGatewayOptions = {}): Promise<Gateway> {
  const providers = (options.providerSet ?? (await ProviderSet.create(config.providers, options.cwd))).adapters;
  const { routing } = config;
  const providerSettings: Record<string, ProviderSettings> = {};
  for (const [name, provider] of Object.entries(config.providers)) {
    const { limits } = provider;
    providerSettings[name] = {
      streamUsage: provider.stream_usage,
      limits: limits && {
        maxResponseBytes: limits.max_response_bytes,
        maxEventBytes: limits.max_event_bytes,
        maxErrorBytes: limits.max_error_bytes,
      },
    };
  }
  return createGateway({
    providers,
    providerSettings,
    connectTimeoutMs: routing.timeouts.connect_ms,
    models: config.models.map(toModelDefinition),
    aliases: config.aliases,
    keys: config.keys,
    onBackgroundError: options.onBackgroundError,
    accounting: options.accounting,
    sharedCooldown: options.sharedCooldown,
    responseCache: config.cache.enabled && {
      store: options.responseCacheStore ?? new LruResponseCacheStore(config.cache.memory_bytes),
      maxTtlS: config.cache.max_ttl_s,
      maxEntryBytes: config.cache.max_entry_bytes,
    },
    routing: {
      maxRetries: routing.max_retries,
      backoff: { baseMs: routing.backoff.base_ms, maxMs: routing.backoff.max_ms },
      cooldown: { failures: routing.cooldown.failures, cooldownMs: routing.cooldown.seconds * 1000 },
      timeouts: {
        firstByteMs: routing.timeouts.first_byte_ms,
        idleMs: routing.timeouts.idle_ms,
        totalMs: routing.timeouts.total_ms,
      },
      ceilings: { maxRetries: routing.ceilings.max_retries, timeoutMs: routing.ceilings.timeout_ms },
      queueMs: routing.queue_ms,
    },
  });
}
