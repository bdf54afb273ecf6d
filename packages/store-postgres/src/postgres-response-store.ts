import {
  DEFAULT_MAX_BYTES_PER_OWNER,
  type ResponseStore,
  type ResponseStoreLimits,
  type StoredResponse,
  storedItemIds,
} from '@switchyard/accounts';
import type pg from 'pg';
import { openMigratedPool, type PostgresStoreOptions } from './migrated-pool.js';

/** Options of {@link PostgresResponseStore.open}: the connection's, and the per-owner quota. */
export interface PostgresResponseStoreOptions extends PostgresStoreOptions {
  /** Most bytes (the records' JSON, UTF-8) one owner may keep; default 64 MiB. */
  maxBytesPerOwner?: number;
}

/** Every response the new one continues from ($1: its previous_response_id) stays at least until $2. */
const EXTEND_CHAIN = `
WITH RECURSIVE chain(id) AS (
  SELECT $1::text
  UNION
  SELECT r.previous_response_id FROM switchyard_responses r JOIN chain c ON r.id = c.id WHERE r.previous_response_id IS NOT NULL
)
UPDATE switchyard_responses SET expires_at = $2 WHERE id IN (SELECT id FROM chain) AND owner = $3 AND expires_at < $2`;

/** Drops the owner's ($1) oldest rows beyond $2 bytes (counted from the newest), never $3 (the row just written). */
const ENFORCE_QUOTA = `
DELETE FROM switchyard_responses WHERE id IN (
  SELECT id FROM (
    SELECT id, sum(bytes) OVER (ORDER BY created_at DESC, id DESC) AS newer FROM switchyard_responses WHERE owner = $1
  ) ranked WHERE newer > $2 AND id <> $3
)`;

/**
 * The Responses API's {@link ResponseStore} on Postgres (tables `switchyard_responses` and
 * `switchyard_response_items`, created by the store's migrations), so that every replica sees every stored response:
 * one `jsonb` record per response (its own input and output and a link to the response it continued, never a copy of
 * the conversation), visible only to its owner; expired rows are never returned and are deleted on writes; an owner
 * above `maxBytesPerOwner` loses its oldest rows first. Every call gives up after `timeoutMs`.
 * `T` is the caller's record type (the Responses front door's `StoredResponse`): records come back as they were put.
 * @see https://node-postgres.com/apis/pool
 */
export class PostgresResponseStore<T extends StoredResponse = StoredResponse> implements ResponseStore<T> {
  readonly #pool: pg.Pool;
  readonly limits: ResponseStoreLimits;

  private constructor(pool: pg.Pool, maxBytesPerOwner: number) {
    this.#pool = pool;
    this.limits = { maxBytesPerOwner };
  }

  /** Connects and applies pending migrations. Throws when Postgres cannot be reached within `timeoutMs` or a migration fails. */
  static async open<T extends StoredResponse = StoredResponse>(
    options: PostgresResponseStoreOptions,
  ): Promise<PostgresResponseStore<T>> {
    const pool = await openMigratedPool(options, { poolSize: 3, applicationName: 'switchyard-responses' });
    return new PostgresResponseStore<T>(pool, options.maxBytesPerOwner ?? DEFAULT_MAX_BYTES_PER_OWNER);
  }

  async putResponse(record: T): Promise<boolean> {
    const json = JSON.stringify(record);
    const bytes = Buffer.byteLength(json);
    if (bytes > this.limits.maxBytesPerOwner) return false;
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM switchyard_responses WHERE expires_at <= $1 OR id = $2', [Date.now(), record.id]);
      await client.query(
        `INSERT INTO switchyard_responses (id, owner, created_at, expires_at, previous_response_id, bytes, record) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          record.id,
          record.owner,
          record.created_at,
          record.expires_at,
          record.previous_response_id ?? null,
          bytes,
          json,
        ],
      );
      await client.query(
        'INSERT INTO switchyard_response_items (owner, item_id, response_id) SELECT $1, unnest($2::text[]), $3 ON CONFLICT DO NOTHING',
        [record.owner, storedItemIds(record), record.id],
      );
      if (record.previous_response_id)
        await client.query(EXTEND_CHAIN, [record.previous_response_id, record.expires_at, record.owner]);
      await client.query(ENFORCE_QUOTA, [record.owner, this.limits.maxBytesPerOwner, record.id]);
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async getResponse(id: string, owner: string): Promise<T | undefined> {
    const { rows } = await this.#pool.query<{ record: T }>(
      'SELECT record FROM switchyard_responses WHERE id = $1 AND owner = $2 AND expires_at > $3',
      [id, owner, Date.now()],
    );
    return rows[0]?.record;
  }

  async findResponseWithItem(itemId: string, owner: string): Promise<T | undefined> {
    const { rows } = await this.#pool.query<{ record: T }>(
      `SELECT r.record FROM switchyard_response_items i JOIN switchyard_responses r ON r.id = i.response_id
       WHERE i.owner = $1 AND i.item_id = $2 AND r.expires_at > $3 ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
      [owner, itemId, Date.now()],
    );
    return rows[0]?.record;
  }

  async deleteResponse(id: string, owner: string): Promise<boolean> {
    const result = await this.#pool.query(
      'DELETE FROM switchyard_responses WHERE id = $1 AND owner = $2 AND expires_at > $3',
      [id, owner, Date.now()],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
