import { dirname, isAbsolute, join } from 'node:path';
import { Accounts } from '@switchyard/accounts';
import { SqliteAccountStore } from '@switchyard/store-sqlite';
import type { GatewayConfig } from '../config/config-schema.js';

/** File name of the accounts database when `store` is not configured: beside the config file. */
export const DEFAULT_SQLITE_FILE = 'switchyard.db';

/**
 * Opens the accounts (virtual keys, limits, usage ledger) when the config has `admin` or `store`; otherwise returns
 * undefined and only the config's static keys work. The SQLite path is resolved against the config file's folder
 * (`configPath`), default `switchyard.db` there (or in the working directory without a config file).
 */
export async function openAccounts(config: GatewayConfig, configPath?: string, onError?: (error: unknown) => void): Promise<Accounts | undefined> {
  if (!config.admin && !config.store) return undefined;
  const base = configPath ? dirname(configPath) : process.cwd();
  const file = config.store?.sqlite ?? DEFAULT_SQLITE_FILE;
  const path = file === ':memory:' || isAbsolute(file) ? file : join(base, file);
  return Accounts.open({ store: new SqliteAccountStore(path), staticKeys: config.keys, masterKey: config.admin?.master_key, onError });
}
