import { ConfigError } from '../config/config-error.js';
import type { GatewayConfig } from '../config/config-schema.js';

/**
 * Refuses a config that would break under several worker processes: virtual keys (enabled by `admin` or `store`)
 * carry rpm/tpm/concurrency/budget limits, and without `redis.url` each worker would count them on its own, admitting N times the
 * limit. Throws ConfigError naming `redis.url`; does nothing for one worker.
 */
export function checkWorkersConfig(config: GatewayConfig, workers: number): void {
  if (workers <= 1 || (!config.admin && !config.store)) return;
  const redisUrl = (config as { redis?: { url?: string } }).redis?.url;
  if (redisUrl) return;
  throw new ConfigError(
    `${workers} workers with virtual keys need a shared limiter: set redis.url (or REDIS_URL) so that rpm_limit, tpm_limit, concurrency_limit and budget_usd hold across workers, or run one worker.`,
  );
}
