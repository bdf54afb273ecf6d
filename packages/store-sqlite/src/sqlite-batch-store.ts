import type {
  BatchLineInput,
  BatchLineResult,
  BatchStatus,
  BatchStore,
  ClaimedLine,
  DoneLine,
  FileListQuery,
  StoredBatch,
  StoredFile,
} from '@switchyard/accounts';
import Database from 'better-sqlite3';
import { BATCHES_SCHEMA_SQL } from './batches-schema.js';

type BatchRow = Omit<StoredBatch, 'batch'> & { batch: string };
const fromBatchRow = (row: BatchRow): StoredBatch => ({
  id: row.id,
  owner: row.owner,
  key_id: row.key_id,
  runner: row.runner,
  upstream_id: row.upstream_id,
  status: row.status,
  batch: JSON.parse(row.batch) as Record<string, unknown>,
});
const createdAt = (batch: StoredBatch) => (typeof batch.batch.created_at === 'number' ? batch.batch.created_at : 0);
const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/**
 * The {@link BatchStore} on SQLite (better-sqlite3, WAL mode), in the accounts database file (or `:memory:`): tables
 * `files`, `batches` and `batch_lines`. A claim is one `UPDATE … RETURNING` of the lowest open lines, which SQLite runs
 * alone (one writer at a time), so two workers of one file never get the same line.
 * @see https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md
 */
export class SqliteBatchStore implements BatchStore {
  readonly #db: Database.Database;

  /** Opens (creating the tables if needed) the database at `path`. Throws when the file cannot be opened. */
  constructor(path: string) {
    this.#db = new Database(path);
    if (path !== ':memory:') this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(BATCHES_SCHEMA_SQL);
  }

  async insertFile(file: StoredFile): Promise<void> {
    this.#db
      .prepare(
        'INSERT INTO files (id, owner, bytes, created_at, expires_at, filename, purpose) VALUES (@id, @owner, @bytes, @created_at, @expires_at, @filename, @purpose)',
      )
      .run(file);
  }

  async getFile(id: string, owner: string): Promise<StoredFile | undefined> {
    return this.#db
      .prepare(
        'SELECT id, owner, bytes, created_at, expires_at, filename, purpose FROM files WHERE id = ? AND owner = ?',
      )
      .get(id, owner) as StoredFile | undefined;
  }

  async listFiles(query: FileListQuery): Promise<StoredFile[]> {
    const where = ['owner = @owner'];
    if (query.purpose) where.push('purpose = @purpose');
    const cmp = query.order === 'asc' ? '>' : '<';
    if (query.after)
      where.push(`(created_at, id) ${cmp} (SELECT created_at, id FROM files WHERE id = @after AND owner = @owner)`);
    const dir = query.order === 'asc' ? 'ASC' : 'DESC';
    const sql = `SELECT id, owner, bytes, created_at, expires_at, filename, purpose FROM files WHERE ${where.join(' AND ')} ORDER BY created_at ${dir}, id ${dir} LIMIT @limit`;
    return this.#db
      .prepare(sql)
      .all({ owner: query.owner, purpose: query.purpose, after: query.after, limit: query.limit }) as StoredFile[];
  }

  async fileBytes(owner: string): Promise<number> {
    return (
      this.#db.prepare('SELECT COALESCE(SUM(bytes), 0) AS total FROM files WHERE owner = ?').get(owner) as {
        total: number;
      }
    ).total;
  }

  async expiredFiles(now: number, limit: number): Promise<StoredFile[]> {
    const sql =
      'SELECT id, owner, bytes, created_at, expires_at, filename, purpose FROM files WHERE expires_at <= ? ORDER BY expires_at, id LIMIT ?';
    return this.#db.prepare(sql).all(now, limit) as StoredFile[];
  }

  async deleteFile(id: string, owner: string): Promise<boolean> {
    return this.#db.prepare('DELETE FROM files WHERE id = ? AND owner = ?').run(id, owner).changes > 0;
  }

  async insertBatch(batch: StoredBatch, lines: readonly BatchLineInput[]): Promise<void> {
    const insertBatch = this.#db.prepare(
      'INSERT INTO batches (id, owner, key_id, runner, upstream_id, status, created_at, batch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertLine = this.#db.prepare(
      'INSERT INTO batch_lines (batch_id, line, custom_id, body) VALUES (?, ?, ?, ?)',
    );
    this.#db.transaction(() => {
      insertBatch.run(
        batch.id,
        batch.owner,
        batch.key_id,
        batch.runner,
        batch.upstream_id,
        batch.status,
        createdAt(batch),
        JSON.stringify(batch.batch),
      );
      for (const line of lines) insertLine.run(batch.id, line.index, line.custom_id, line.body);
    })();
  }

  async getBatch(id: string, owner?: string): Promise<StoredBatch | undefined> {
    const row = (
      owner === undefined
        ? this.#db.prepare('SELECT * FROM batches WHERE id = ?').get(id)
        : this.#db.prepare('SELECT * FROM batches WHERE id = ? AND owner = ?').get(id, owner)
    ) as BatchRow | undefined;
    return row && fromBatchRow(row);
  }

  async listBatches(owner: string, limit: number, after?: string): Promise<StoredBatch[]> {
    const cursor = after
      ? 'AND (created_at, id) < (SELECT created_at, id FROM batches WHERE id = @after AND owner = @owner)'
      : '';
    const sql = `SELECT * FROM batches WHERE owner = @owner ${cursor} ORDER BY created_at DESC, id DESC LIMIT @limit`;
    return (this.#db.prepare(sql).all({ owner, after, limit }) as BatchRow[]).map(fromBatchRow);
  }

  async updateBatch(batch: StoredBatch, expected: readonly BatchStatus[]): Promise<boolean> {
    const sql = `UPDATE batches SET status = ?, upstream_id = ?, batch = ? WHERE id = ? AND status IN (${marks(expected)})`;
    return (
      this.#db.prepare(sql).run(batch.status, batch.upstream_id, JSON.stringify(batch.batch), batch.id, ...expected)
        .changes > 0
    );
  }

  async batchesWithStatus(statuses: readonly BatchStatus[]): Promise<string[]> {
    const sql = `SELECT id FROM batches WHERE status IN (${marks(statuses)}) ORDER BY created_at, id`;
    return (this.#db.prepare(sql).all(...statuses) as { id: string }[]).map((r) => r.id);
  }

  async claimLines(
    batchId: string,
    worker: string,
    count: number,
    now: number,
    leaseUntil: number,
  ): Promise<ClaimedLine[]> {
    const rows = this.#db
      .prepare(
        `UPDATE batch_lines SET state = 'running', worker = @worker, lease_until = @leaseUntil, attempts = attempts + 1
         WHERE batch_id = @batchId AND line IN (
           SELECT line FROM batch_lines WHERE batch_id = @batchId AND (state = 'pending' OR (state = 'running' AND lease_until < @now))
           ORDER BY line LIMIT @count)
         RETURNING line, custom_id, body, attempts`,
      )
      .all({ batchId, worker, leaseUntil, now, count }) as {
      line: number;
      custom_id: string;
      body: string;
      attempts: number;
    }[];
    return rows
      .sort((a, b) => a.line - b.line)
      .map((r) => ({ index: r.line, custom_id: r.custom_id, body: r.body, attempts: r.attempts - 1 }));
  }

  async completeLine(batchId: string, index: number, worker: string, result: BatchLineResult): Promise<boolean> {
    const sql = `UPDATE batch_lines SET state = 'done', failed = ?, result = ?, lease_until = NULL WHERE batch_id = ? AND line = ? AND state = 'running' AND worker = ?`;
    return this.#db.prepare(sql).run(result.failed ? 1 : 0, JSON.stringify(result), batchId, index, worker).changes > 0;
  }

  async failOpenLines(batchId: string, result: BatchLineResult, now: number): Promise<number> {
    const sql = `UPDATE batch_lines SET state = 'done', failed = ?, result = ?, lease_until = NULL
      WHERE batch_id = ? AND (state = 'pending' OR (state = 'running' AND lease_until < ?))`;
    return this.#db.prepare(sql).run(result.failed ? 1 : 0, JSON.stringify(result), batchId, now).changes;
  }

  async lineCounts(batchId: string): Promise<{ total: number; completed: number; failed: number; open: number }> {
    const row = this.#db
      .prepare(
        `SELECT COUNT(*) AS total, COALESCE(SUM(state = 'done' AND failed = 0), 0) AS completed, COALESCE(SUM(state = 'done' AND failed = 1), 0) AS failed,
         COALESCE(SUM(state != 'done'), 0) AS open FROM batch_lines WHERE batch_id = ?`,
      )
      .get(batchId) as { total: number; completed: number; failed: number; open: number };
    return row;
  }

  async doneLines(batchId: string, afterIndex: number, limit: number): Promise<DoneLine[]> {
    const rows = this.#db
      .prepare(
        `SELECT line, custom_id, result FROM batch_lines WHERE batch_id = ? AND state = 'done' AND line > ? ORDER BY line LIMIT ?`,
      )
      .all(batchId, afterIndex, limit) as { line: number; custom_id: string; result: string }[];
    return rows.map((r) => ({
      index: r.line,
      custom_id: r.custom_id,
      result: JSON.parse(r.result) as BatchLineResult,
    }));
  }

  async deleteLines(batchId: string): Promise<void> {
    this.#db.prepare('DELETE FROM batch_lines WHERE batch_id = ?').run(batchId);
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}
