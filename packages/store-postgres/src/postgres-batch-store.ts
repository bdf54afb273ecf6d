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
import type pg from 'pg';
import { BATCH_WORK_CHANNEL, BatchWorkListener } from './batch-work-listener.js';
import { openMigratedPool, type PostgresStoreOptions } from './migrated-pool.js';

/** Lines sent per `INSERT … unnest` statement when a batch is stored. */
const LINES_PER_INSERT = 2_000;

const FILE_COLUMNS =
  'id, owner, bytes::float8 AS bytes, created_at::float8 AS created_at, expires_at::float8 AS expires_at, filename, purpose';
const BATCH_COLUMNS = 'id, owner, key_id, runner, upstream_id, status, batch';

const createdAt = (batch: StoredBatch) => (typeof batch.batch.created_at === 'number' ? batch.batch.created_at : 0);

/**
 * The {@link BatchStore} on Postgres (tables `switchyard_files`, `switchyard_batches`, `switchyard_batch_lines`, made
 * by the store's migrations), shared by every replica. A claim is one `UPDATE … WHERE line IN (SELECT … FOR UPDATE SKIP
 * LOCKED) RETURNING`, so replicas claiming at once get different lines and never wait on each other. Every call gives
 * up after `timeoutMs`.
 * @see https://www.postgresql.org/docs/current/sql-select.html#SQL-FOR-UPDATE-SHARE
 */
export class PostgresBatchStore implements BatchStore {
  readonly #pool: pg.Pool;
  readonly #work: BatchWorkListener;

  private constructor(pool: pg.Pool, work: BatchWorkListener) {
    this.#pool = pool;
    this.#work = work;
  }

  /** Connects and applies pending migrations. Throws when Postgres cannot be reached within `timeoutMs` or a migration fails. */
  static async open(options: PostgresStoreOptions): Promise<PostgresBatchStore> {
    const pool = await openMigratedPool(options, { poolSize: 3, applicationName: 'switchyard-batches' });
    return new PostgresBatchStore(pool, new BatchWorkListener(options.connectionString, options.onError));
  }

  async insertFile(file: StoredFile): Promise<void> {
    await this.#pool.query(
      'INSERT INTO switchyard_files (id, owner, bytes, created_at, expires_at, filename, purpose) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [file.id, file.owner, file.bytes, file.created_at, file.expires_at, file.filename, file.purpose],
    );
  }

  async getFile(id: string, owner: string): Promise<StoredFile | undefined> {
    const { rows } = await this.#pool.query<StoredFile>(
      `SELECT ${FILE_COLUMNS} FROM switchyard_files WHERE id = $1 AND owner = $2`,
      [id, owner],
    );
    return rows[0];
  }

  async listFiles(query: FileListQuery): Promise<StoredFile[]> {
    const params: unknown[] = [query.owner, query.limit];
    const where = ['owner = $1'];
    if (query.purpose) {
      params.push(query.purpose);
      where.push(`purpose = $${params.length}`);
    }
    if (query.after) {
      params.push(query.after);
      const cmp = query.order === 'asc' ? '>' : '<';
      where.push(
        `(created_at, id) ${cmp} (SELECT created_at, id FROM switchyard_files WHERE id = $${params.length} AND owner = $1)`,
      );
    }
    const dir = query.order === 'asc' ? 'ASC' : 'DESC';
    const sql = `SELECT ${FILE_COLUMNS} FROM switchyard_files WHERE ${where.join(' AND ')} ORDER BY created_at ${dir}, id ${dir} LIMIT $2`;
    return (await this.#pool.query<StoredFile>(sql, params)).rows;
  }

  async fileBytes(owner: string): Promise<number> {
    const { rows } = await this.#pool.query<{ total: number }>(
      'SELECT COALESCE(SUM(bytes), 0)::float8 AS total FROM switchyard_files WHERE owner = $1',
      [owner],
    );
    return rows[0]?.total ?? 0;
  }

  async expiredFiles(now: number, limit: number): Promise<StoredFile[]> {
    const sql = `SELECT ${FILE_COLUMNS} FROM switchyard_files WHERE expires_at <= $1 ORDER BY expires_at, id LIMIT $2`;
    return (await this.#pool.query<StoredFile>(sql, [now, limit])).rows;
  }

  async deleteFile(id: string, owner: string): Promise<boolean> {
    const result = await this.#pool.query('DELETE FROM switchyard_files WHERE id = $1 AND owner = $2', [id, owner]);
    return (result.rowCount ?? 0) > 0;
  }

  async insertBatch(batch: StoredBatch, lines: readonly BatchLineInput[]): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        'INSERT INTO switchyard_batches (id, owner, key_id, runner, upstream_id, status, created_at, batch) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [
          batch.id,
          batch.owner,
          batch.key_id,
          batch.runner,
          batch.upstream_id,
          batch.status,
          createdAt(batch),
          JSON.stringify(batch.batch),
        ],
      );
      for (let start = 0; start < lines.length; start += LINES_PER_INSERT) {
        const page = lines.slice(start, start + LINES_PER_INSERT);
        await client.query(
          'INSERT INTO switchyard_batch_lines (batch_id, line, custom_id, body) SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::text[])',
          [batch.id, page.map((l) => l.index), page.map((l) => l.custom_id), page.map((l) => l.body)],
        );
      }
      // Delivered to every replica's listener at commit.
      await client.query('SELECT pg_notify($1, $2)', [BATCH_WORK_CHANNEL, batch.id]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async getBatch(id: string, owner?: string): Promise<StoredBatch | undefined> {
    const { rows } =
      owner === undefined
        ? await this.#pool.query<StoredBatch>(`SELECT ${BATCH_COLUMNS} FROM switchyard_batches WHERE id = $1`, [id])
        : await this.#pool.query<StoredBatch>(
            `SELECT ${BATCH_COLUMNS} FROM switchyard_batches WHERE id = $1 AND owner = $2`,
            [id, owner],
          );
    return rows[0];
  }

  async listBatches(owner: string, limit: number, after?: string): Promise<StoredBatch[]> {
    const cursor = after
      ? 'AND (created_at, id) < (SELECT created_at, id FROM switchyard_batches WHERE id = $3 AND owner = $1)'
      : '';
    const sql = `SELECT ${BATCH_COLUMNS} FROM switchyard_batches WHERE owner = $1 ${cursor} ORDER BY created_at DESC, id DESC LIMIT $2`;
    return (await this.#pool.query<StoredBatch>(sql, after ? [owner, limit, after] : [owner, limit])).rows;
  }

  async updateBatch(batch: StoredBatch, expected: readonly BatchStatus[]): Promise<boolean> {
    const result = await this.#pool.query(
      'UPDATE switchyard_batches SET status = $1, upstream_id = $2, batch = $3 WHERE id = $4 AND status = ANY($5::text[])',
      [batch.status, batch.upstream_id, JSON.stringify(batch.batch), batch.id, expected],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async batchesWithStatus(statuses: readonly BatchStatus[]): Promise<string[]> {
    const { rows } = await this.#pool.query<{ id: string }>(
      'SELECT id FROM switchyard_batches WHERE status = ANY($1::text[]) ORDER BY created_at, id',
      [statuses],
    );
    return rows.map((r) => r.id);
  }

  async claimLines(
    batchId: string,
    worker: string,
    count: number,
    now: number,
    leaseUntil: number,
  ): Promise<ClaimedLine[]> {
    const { rows } = await this.#pool.query<{ line: number; custom_id: string; body: string; attempts: number }>(
      `UPDATE switchyard_batch_lines SET state = 'running', worker = $2, lease_until = $3, attempts = attempts + 1
       WHERE batch_id = $1 AND line IN (
         SELECT line FROM switchyard_batch_lines WHERE batch_id = $1 AND (state = 'pending' OR (state = 'running' AND lease_until < $4))
         ORDER BY line LIMIT $5 FOR UPDATE SKIP LOCKED)
       RETURNING line, custom_id, body, attempts`,
      [batchId, worker, leaseUntil, now, count],
    );
    return rows
      .sort((a, b) => a.line - b.line)
      .map((r) => ({ index: r.line, custom_id: r.custom_id, body: r.body, attempts: r.attempts - 1 }));
  }

  async completeLine(batchId: string, index: number, worker: string, result: BatchLineResult): Promise<boolean> {
    const outcome = await this.#pool.query(
      `UPDATE switchyard_batch_lines SET state = 'done', failed = $1, result = $2, lease_until = NULL
       WHERE batch_id = $3 AND line = $4 AND state = 'running' AND worker = $5`,
      [result.failed, JSON.stringify(result), batchId, index, worker],
    );
    return (outcome.rowCount ?? 0) > 0;
  }

  async failOpenLines(batchId: string, result: BatchLineResult, now: number): Promise<number> {
    const outcome = await this.#pool.query(
      `UPDATE switchyard_batch_lines SET state = 'done', failed = $1, result = $2, lease_until = NULL
       WHERE batch_id = $3 AND (state = 'pending' OR (state = 'running' AND lease_until < $4))`,
      [result.failed, JSON.stringify(result), batchId, now],
    );
    return outcome.rowCount ?? 0;
  }

  async lineCounts(batchId: string): Promise<{ total: number; completed: number; failed: number; open: number }> {
    const { rows } = await this.#pool.query<{ total: number; completed: number; failed: number; open: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'done' AND NOT failed)::int AS completed,
       count(*) FILTER (WHERE state = 'done' AND failed)::int AS failed, count(*) FILTER (WHERE state <> 'done')::int AS open
       FROM switchyard_batch_lines WHERE batch_id = $1`,
      [batchId],
    );
    return rows[0] ?? { total: 0, completed: 0, failed: 0, open: 0 };
  }

  async doneLines(batchId: string, afterIndex: number, limit: number): Promise<DoneLine[]> {
    const { rows } = await this.#pool.query<{ line: number; custom_id: string; result: BatchLineResult }>(
      `SELECT line, custom_id, result FROM switchyard_batch_lines WHERE batch_id = $1 AND state = 'done' AND line > $2 ORDER BY line LIMIT $3`,
      [batchId, afterIndex, limit],
    );
    return rows.map((r) => ({ index: r.line, custom_id: r.custom_id, result: r.result }));
  }

  async deleteLines(batchId: string): Promise<void> {
    await this.#pool.query('DELETE FROM switchyard_batch_lines WHERE batch_id = $1', [batchId]);
  }

  /** Calls `listener` when any replica creates a batch (Postgres `LISTEN`/`NOTIFY` on one dedicated connection). */
  onBatchCreated(listener: () => void): Promise<() => void> {
    return this.#work.add(listener);
  }

  async close(): Promise<void> {
    await this.#work.close();
    await this.#pool.end();
  }
}
