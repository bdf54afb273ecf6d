import {
  DEFAULT_MAX_BYTES_PER_OWNER,
  type ResponseStore,
  type ResponseStoreLimits,
  type StoredResponse,
  storedItemIds,
} from '@switchyard/accounts';
import Database from 'better-sqlite3';
import { migrateResponsesTable } from './responses-schema.js';

/** Options of {@link SqliteResponseStore}. */
export interface SqliteResponseStoreOptions {
  /** Most bytes (the records' JSON, UTF-8) one owner may keep; default 64 MiB. */
  maxBytesPerOwner?: number;
}

/**
 * The Responses API's {@link ResponseStore} on SQLite (better-sqlite3, WAL mode): table `responses` in the accounts
 * database file (or `:memory:`), one JSON record per response (its own input and output, and a link to the response
 * it continued: never a copy of the conversation), visible only to its owner, and table `response_items` indexing
 * item ids for `item_reference`. Expired rows are never returned and are deleted on every write; an owner above
 * `maxBytesPerOwner` loses its oldest rows first.
 * `T` is the caller's record type (the Responses front door's `StoredResponse`): records come back as they were put.
 * @see https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md
 */
export class SqliteResponseStore<T extends StoredResponse = StoredResponse> implements ResponseStore<T> {
  readonly limits: ResponseStoreLimits;
  readonly #db: Database.Database;
  readonly #put: (record: StoredResponse, json: string, bytes: number) => void;
  readonly #get: Database.Statement<[string, string, number], { record: string }>;
  readonly #findItem: Database.Statement<[string, string, number], { record: string }>;
  readonly #delete: (id: string, owner: string) => boolean;

  /** Opens (creating or migrating if needed) the database at `path`. Throws when the file cannot be opened. */
  constructor(path: string, options: SqliteResponseStoreOptions = {}) {
    this.limits = { maxBytesPerOwner: options.maxBytesPerOwner ?? DEFAULT_MAX_BYTES_PER_OWNER };
    const db = new Database(path);
    this.#db = db;
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    migrateResponsesTable(db);
    const purgeItems = db.prepare(
      'DELETE FROM response_items WHERE response_id IN (SELECT id FROM responses WHERE expires_at <= ?)',
    );
    const purge = db.prepare('DELETE FROM responses WHERE expires_at <= ?');
    const deleteItems = db.prepare('DELETE FROM response_items WHERE response_id = ?');
    const deleteRow = db.prepare('DELETE FROM responses WHERE id = ?');
    const insert = db.prepare(
      'INSERT OR REPLACE INTO responses (id, owner, created_at, expires_at, previous_response_id, bytes, record) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertItem = db.prepare(
      'INSERT OR IGNORE INTO response_items (owner, item_id, response_id) VALUES (?, ?, ?)',
    );
    // Every response the new one continues from stays at least as long as it.
    const extendChain = db.prepare(`
      WITH RECURSIVE chain(id) AS (
        SELECT ? UNION SELECT r.previous_response_id FROM responses r JOIN chain c ON r.id = c.id WHERE r.previous_response_id IS NOT NULL
      )
      UPDATE responses SET expires_at = ? WHERE id IN (SELECT id FROM chain) AND owner = ? AND expires_at < ?`);
    const ownerBytes = db.prepare<[string], { total: number | null }>(
      'SELECT SUM(bytes) AS total FROM responses WHERE owner = ?',
    );
    const oldest = db.prepare<[string, string], { id: string; bytes: number }>(
      'SELECT id, bytes FROM responses WHERE owner = ? AND id != ? ORDER BY created_at, rowid',
    );
    const remove = (id: string) => {
      deleteItems.run(id);
      deleteRow.run(id);
    };
    this.#put = db.transaction((record: StoredResponse, json: string, bytes: number) => {
      const now = Date.now();
      purgeItems.run(now);
      purge.run(now);
      remove(record.id);
      insert.run(
        record.id,
        record.owner,
        record.created_at,
        record.expires_at,
        record.previous_response_id ?? null,
        bytes,
        json,
      );
      for (const itemId of storedItemIds(record)) insertItem.run(record.owner, itemId, record.id);
      if (record.previous_response_id)
        extendChain.run(record.previous_response_id, record.expires_at, record.owner, record.expires_at);
      let excess = (ownerBytes.get(record.owner)?.total ?? 0) - this.limits.maxBytesPerOwner;
      if (excess <= 0) return;
      for (const row of oldest.all(record.owner, record.id)) {
        remove(row.id);
        excess -= row.bytes;
        if (excess <= 0) return;
      }
    });
    this.#get = db.prepare('SELECT record FROM responses WHERE id = ? AND owner = ? AND expires_at > ?');
    this.#findItem = db.prepare(`
      SELECT r.record FROM response_items i JOIN responses r ON r.id = i.response_id
      WHERE i.owner = ? AND i.item_id = ? AND r.expires_at > ? ORDER BY r.created_at DESC, r.rowid DESC LIMIT 1`);
    const owned = db.prepare<[string, string, number], { id: string }>(
      'SELECT id FROM responses WHERE id = ? AND owner = ? AND expires_at > ?',
    );
    this.#delete = db.transaction((id: string, owner: string) => {
      if (!owned.get(id, owner, Date.now())) return false;
      remove(id);
      return true;
    });
  }

  async putResponse(record: T): Promise<boolean> {
    const json = JSON.stringify(record);
    const bytes = Buffer.byteLength(json);
    if (bytes > this.limits.maxBytesPerOwner) return false;
    this.#put(record, json, bytes);
    return true;
  }

  async getResponse(id: string, owner: string): Promise<T | undefined> {
    const row = this.#get.get(id, owner, Date.now());
    return row && (JSON.parse(row.record) as T);
  }

  async findResponseWithItem(itemId: string, owner: string): Promise<T | undefined> {
    const row = this.#findItem.get(owner, itemId, Date.now());
    return row && (JSON.parse(row.record) as T);
  }

  async deleteResponse(id: string, owner: string): Promise<boolean> {
    return this.#delete(id, owner);
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}
