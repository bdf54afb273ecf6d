import { dirname, isAbsolute, join } from 'node:path';
import { Accounts, type AccountStore, budgetCrossings } from '@switchyard/accounts';
import type { SwitchyardRedis } from '@switchyard/redis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/config-schema.js';
import type { BudgetAlerts } from './budget-alerts.js';

/** File name of the accounts database when `store` is not configured: beside the config file. */
export const DEFAULT_SQLITE_FILE = 'switchyard.db';

const message = (error: unknown) => (error as Error)?.message ?? String(error);

/** True when the config has `admin` or `store`: virtual keys, the ledger and stored responses live in the store. */
export function accountsEnabled(config: GatewayConfig): boolean {
  return config.admin !== undefined || config.store !== undefined;
}

/** The SQLite file of the accounts store: `store.sqlite` resolved against the config file's folder, default `switchyard.db`. */
export function sqlitePath(config: GatewayConfig, configPath?: string): string {
  const base = configPath ? dirname(configPath) : process.cwd();
  const file = config.store?.sqlite ?? DEFAULT_SQLITE_FILE;
  return file === ':memory:' || isAbsolute(file) ? file : join(base, file);
}

/**
 * Opens the configured account store: Postgres for `store.postgres` (migrating it under an advisory lock), otherwise
 * SQLite at `store.sqlite` resolved against the config file's folder (`configPath`), default `switchyard.db` there (or
 * in the working directory without a config file). Throws when the store cannot be opened (e.g. Postgres unreachable
 * within `store.timeout_ms`). The store's package (and its driver) is loaded only here, when a store is configured.
 */
export async function openStore(
  config: GatewayConfig,
  configPath: string | undefined,
  logger: Logger,
): Promise<AccountStore> {
  if (config.store?.postgres) {
    const { PostgresAccountStore } = await import('@switchyard/store-postgres');
    return PostgresAccountStore.open({
      connectionString: config.store.postgres,
      timeoutMs: config.store.timeout_ms,
      onError: (error) => logger.warn({ err: { message: message(error) } }, 'postgres connection lost'),
    });
  }
  const { SqliteAccountStore } = await import('@switchyard/store-sqlite');
  return new SqliteAccountStore(sqlitePath(config, configPath));
}

/**
 * Opens the accounts (virtual keys, limits, usage ledger) when the config has `admin` or `store`; otherwise returns
 * undefined and only the config's static keys work. With `redis` (config `redis:`), limits are counted in Redis and key
 * changes are broadcast to every replica. Budget thresholds crossed go to `alerts` (see {@link BudgetAlerts}). Failed ledger writes and rows dropped past `store.ledger_buffer`
 * are logged (never the rows themselves).
 */
export async function openAccounts(
  config: GatewayConfig,
  configPath: string | undefined,
  logger: Logger,
  redis?: SwitchyardRedis,
  alerts?: BudgetAlerts,
): Promise<Accounts | undefined> {
  if (!accountsEnabled(config)) return undefined;
  return Accounts.open({
    onBudgetSettled: alerts && ((event) => alerts.notify(budgetCrossings(event))),
    limiter: redis?.limiter(),
    keyChanges: redis,
    store: await openStore(config, configPath, logger),
    staticKeys: config.keys,
    masterKey: config.admin?.master_key,
    budgetTimeZone: config.budgets.timezone,
    ledgerMaxBuffered: config.store?.ledger_buffer,
    onError: (error) =>
      logger.error({ err: { message: message(error) } }, 'usage ledger write failed; rows kept for a retry'),
    onAuditError: (error) => logger.error({ err: { message: message(error) } }, 'audit log write failed'),
    onLedgerDropped: (count, total) =>
      logger.error(
        { dropped: count, dropped_total: total },
        `usage ledger buffer full: ${count} ledger row(s) dropped`,
      ),
  });
}
