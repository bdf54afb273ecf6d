import type { ResponseStore, StoredResponse } from '@switchyard/front-door-responses';
import Database from 'better-sqlite3';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS responses (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_expiry ON responses (expires_at);
`;

/**
 * The Responses API's {@link ResponseStore} on SQLite (better-sqlite3, WAL mode): table `responses` in the accounts
 * database file (or `:memory:`), one JSON record per response, visible only to its owner. Expired rows are never
 * returned and are deleted on every write.
 * @see https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md
 */
export class SqliteResponseStore implements ResponseStore {
  readonly #db: Database.Database;
  readonly #put: Database.Statement;
  readonly #purge: Database.Statement;
  readonly #get: Database.Statement;
  readonly #delete: Database.Statement;

  /** Opens (creating if needed) the database at `path`. Throws when the file cannot be opened. */
  constructor(path: string) {
    this.#db = new Database(path);
    if (path !== ':memory:') this.#db.pragma('journal_mode = WAL');
    this.#db.exec(SCHEMA);
    this.#put = this.#db.prepare('INSERT OR REPLACE INTO responses (id, owner, created_at, expires_at, record) VALUES (?, ?, ?, ?, ?)');
    this.#purge = this.#db.prepare('DELETE FROM responses WHERE expires_at <= ?');
    this.#get = this.#db.prepare('SELECT record FROM responses WHERE id = ? AND owner = ? AND expires_at > ?');
    this.#delete = this.#db.prepare('DELETE FROM responses WHERE id = ? AND owner = ? AND expires_at > ?');
  }

  async putResponse(record: StoredResponse): Promise<void> {
    this.#purge.run(Date.now());
    this.#put.run(record.id, record.owner, record.created_at, record.expires_at, JSON.stringify(record));
  }

  async getResponse(id: string, owner: string): Promise<StoredResponse | undefined> {
    const row = this.#get.get(id, owner, Date.now()) as { record: string } | undefined;
    return row && (JSON.parse(row.record) as StoredResponse);
  }

  async deleteResponse(id: string, owner: string): Promise<boolean> {
    return this.#delete.run(id, owner, Date.now()).changes > 0;
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}
