import pg from 'pg';
import { migrate } from './migrate.js';

/** Options of the Postgres stores' `open`: the account, batch and response stores. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (libpq URI; `?sslmode=` and the other node-postgres parameters work). */
  connectionString: string;
  /** Longest wait for one store call (connecting, waiting for a pooled connection, running the query), ms. Default 5,000. */
  timeoutMs?: number;
  /** Pooled connections per process. Default 5 for the account store, 3 for the batch and response stores. */
  poolSize?: number;
  /** Called for errors of idle pooled connections (e.g. Postgres restarted); they are replaced on the next call. */
  onError?: (error: unknown) => void;
}

/** How one store's pool differs from the others': its default size and the name Postgres shows for its sessions. */
export interface PoolDefaults {
  /** Pooled connections per process when `options.poolSize` is not set. */
  poolSize: number;
  /** `application_name` of the pool's sessions (shown in `pg_stat_activity`). */
  applicationName: string;
}

/**
 * Opens a node-postgres pool for a store and applies pending migrations (waiting for another replica that is
 * migrating). Every call on the pool gives up after `options.timeoutMs` (default 5,000 ms): connecting, waiting for a
 * pooled connection and running a query; idle connections close after 30 s. Errors of idle connections go to
 * `options.onError`. Throws when Postgres cannot be reached in time or a migration fails; the pool is then ended.
 * @see https://node-postgres.com/apis/pool
 */
export async function openMigratedPool(options: PostgresStoreOptions, defaults: PoolDefaults): Promise<pg.Pool> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? defaults.poolSize,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
    idleTimeoutMillis: 30_000,
    application_name: defaults.applicationName,
  });
  pool.on('error', (error) => options.onError?.(error));
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return pool;
}
