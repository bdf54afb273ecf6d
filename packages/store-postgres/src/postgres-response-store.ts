import type { ResponseStore, StoredResponse } from '@switchyard/front-door-responses';
import pg from 'pg';
import { migrate } from './migrate.js';
import type { PostgresStoreOptions } from './postgres-account-store.js';

/**
 * The Responses API's {@link ResponseStore} on Postgres (table `switchyard_responses`, created by the store's
 * migrations), so that every replica sees every stored response: one `jsonb` record per response, visible only to its
 * owner; expired rows are never returned and are deleted on writes. Every call gives up after `timeoutMs`.
 * @see https://node-postgres.com/apis/pool
 */
export class PostgresResponseStore implements ResponseStore {
  readonly #pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Connects and applies pending migrations. Throws when Postgres cannot be reached within `timeoutMs` or a migration fails. */
  static async open(options: PostgresStoreOptions): Promise<PostgresResponseStore> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 3,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
      idleTimeoutMillis: 30_000,
      application_name: 'switchyard-responses',
    });
    pool.on('error', (error) => options.onError?.(error));
    try {
      await migrate(pool);
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return new PostgresResponseStore(pool);
  }

  async putResponse(record: StoredResponse): Promise<void> {
    await this.#pool.query('DELETE FROM switchyard_responses WHERE expires_at <= $1', [Date.now()]);
    await this.#pool.query(
      `INSERT INTO switchyard_responses (id, owner, created_at, expires_at, record) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, record = EXCLUDED.record`,
      [record.id, record.owner, record.created_at, record.expires_at, JSON.stringify(record)],
    );
  }

  async getResponse(id: string, owner: string): Promise<StoredResponse | undefined> {
    const { rows } = await this.#pool.query<{ record: StoredResponse }>(
      'SELECT record FROM switchyard_responses WHERE id = $1 AND owner = $2 AND expires_at > $3',
      [id, owner, Date.now()],
    );
    return rows[0]?.record;
  }

  async deleteResponse(id: string, owner: string): Promise<boolean> {
    const result = await this.#pool.query('DELETE FROM switchyard_responses WHERE id = $1 AND owner = $2 AND expires_at > $3', [id, owner, Date.now()]);
    return (result.rowCount ?? 0) > 0;
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
