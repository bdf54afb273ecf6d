import {
  type AccountStore,
  type AuditEntry,
  type AuditQuery,
  jsonText,
  type Organization,
  SPARSE_GROUPS,
  TableBackedAccountStore,
  type Team,
  type UsageFilter,
  type UsageGroupBy,
  type UsageQuery,
  type UsageRow,
  type UsageTotals,
  type VirtualKey,
} from '@switchyard/accounts';
import type pg from 'pg';
import { KEY_COLUMNS, type KeyRow, keyFromRow, keyParams, SECRET_COLUMNS } from './key-row.js';
import { PostgresGroupTable } from './group-table.js';
import { INSERT_USAGE, USAGE_COLUMNS, usageJson } from './usage-insert.js';
import { ledgerRowId } from './ledger-row-id.js';
import { openMigratedPool, type PostgresStoreOptions } from './migrated-pool.js';
import { PostgresAdminSessions } from './postgres-admin-sessions.js';

/** Key columns an update never changes (a rotation changes the secret ones). */
const FIXED_COLUMNS = new Set<string>(['id', 'created_at', ...SECRET_COLUMNS]);

const GROUP_COLUMN: Record<UsageGroupBy, string> = {
  key: 'key_id',
  model: 'model',
  day: "to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  status: 'status::text',
  session: 'session_id',
  agent: 'agent_id',
  team: 'team_id',
  organization: 'organization_id',
  end_user: 'end_user',
};

/** The conditions of a ledger filter on `switchyard_usage`, with `param` adding each value as a `$n` parameter. */
function usageConditions(filter: UsageFilter, param: (value: unknown) => string): string[] {
  const where: string[] = [];
  const add = (column: string, op: string, value: unknown) => {
    if (value !== undefined && value !== '') where.push(`${column} ${op} ${param(value)}`);
  };
  add('key_id', '=', filter.key_id);
  add('model', '=', filter.model);
  add('team_id', '=', filter.team_id);
  add('organization_id', '=', filter.organization_id);
  add('end_user', '=', filter.end_user);
  add('session_id', '=', filter.session_id);
  add('created_at', '>=', filter.from);
  add('created_at', '<', filter.to);
  return where;
}

/**
 * The {@link AccountStore} on Postgres through node-postgres (`pg`), for several gateway replicas or workers sharing
 * one database. {@link PostgresAccountStore.open} applies the versioned migrations under an advisory lock. Ledger
 * batches are one `INSERT … SELECT` statement from one JSON parameter (see `INSERT_USAGE`); each row gets a UUID the first time it is written, so a batch
 * retried after a timeout is not stored twice. Every call gives up after `timeoutMs` (client side, plus the same
 * `statement_timeout` on the server) and rejects with the driver's error.
 * @see https://node-postgres.com/apis/pool
 */
export class PostgresAccountStore extends TableBackedAccountStore implements AccountStore {
  readonly #pool: pg.Pool;
  readonly #rowIds = new WeakMap<UsageRow, string>();

  private constructor(pool: pg.Pool) {
    super();
    this.#pool = pool;
    this.useTables({
      teams: new PostgresGroupTable<Team>(pool, 'switchyard_teams', ['organization_id']),
      organizations: new PostgresGroupTable<Organization>(pool, 'switchyard_organizations'),
      sessions: new PostgresAdminSessions(pool),
    });
  }

  /**
   * Connects, applies pending migrations (waiting for another replica that is migrating) and returns the store.
   * Throws when Postgres cannot be reached within `timeoutMs` or a migration fails.
   */
  static async open(options: PostgresStoreOptions): Promise<PostgresAccountStore> {
    const pool = await openMigratedPool(options, { poolSize: 5, applicationName: 'switchyard' });
    return new PostgresAccountStore(pool);
  }

  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  async listKeys(): Promise<VirtualKey[]> {
    const { rows } = await this.#pool.query<KeyRow>('SELECT * FROM switchyard_keys ORDER BY created_at, id');
    return rows.map(keyFromRow);
  }

  async getKey(id: string): Promise<VirtualKey | undefined> {
    const { rows } = await this.#pool.query<KeyRow>('SELECT * FROM switchyard_keys WHERE id = $1', [id]);
    return rows[0] && keyFromRow(rows[0]);
  }

  async getKeyByHash(keyHash: string): Promise<VirtualKey | undefined> {
    // Two index look-ups (the OR form made Postgres scan the whole table once per unknown key).
    const { rows } = await this.#pool.query<KeyRow>(
      'SELECT * FROM switchyard_keys WHERE key_hash = $1 UNION ALL SELECT * FROM switchyard_keys WHERE previous_key_hash = $1',
      [keyHash],
    );
    return rows[0] && keyFromRow(rows[0]);
  }

  async insertKey(key: VirtualKey): Promise<void> {
    await this.#pool.query(
      `INSERT INTO switchyard_keys (${KEY_COLUMNS.join(', ')}) VALUES (${KEY_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
      keyParams(key),
    );
  }

  async updateKey(key: VirtualKey): Promise<void> {
    await this.#update(key, (column) => !FIXED_COLUMNS.has(column));
  }

  async rotateKeySecret(key: VirtualKey): Promise<void> {
    await this.#update(key, (column) => SECRET_COLUMNS.has(column));
  }

  /** Writes the `columns` of `key` to its row. */
  async #update(key: VirtualKey, columns: (column: string) => boolean): Promise<void> {
    const params = keyParams(key);
    const changed = KEY_COLUMNS.flatMap((column, i) => (columns(column) ? [[column, params[i]] as const] : []));
    await this.#pool.query(
      `UPDATE switchyard_keys SET ${changed.map(([column], i) => `${column} = $${i + 2}`).join(', ')} WHERE id = $1`,
      [key.id, ...changed.map(([, value]) => value)],
    );
  }

  async appendUsage(rows: readonly UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    const ids = rows.map((row) => {
      let id = this.#rowIds.get(row);
      if (!id) this.#rowIds.set(row, (id = ledgerRowId()));
      return id;
    });
    await this.#pool.query(INSERT_USAGE, [ids, usageJson(rows)]);
  }

  async recentUsage(keyId: string | UsageFilter, since: number): Promise<{ requests: number; tokens: number }> {
    const values: unknown[] = [];
    const filter = typeof keyId === 'string' ? { key_id: keyId } : keyId;
    const where = usageConditions({ ...filter, from: since }, (value) => `$${values.push(value)}`);
    const { rows } = await this.#pool.query<{ requests: number; tokens: number }>(
      `SELECT COUNT(*)::int AS requests, COALESCE(SUM(prompt_tokens + completion_tokens), 0)::float8 AS tokens FROM switchyard_usage WHERE ${where.join(' AND ')} AND (attempts > 0 OR cache_hit)`,
      values,
    );
    return { requests: rows[0]?.requests ?? 0, tokens: rows[0]?.tokens ?? 0 };
  }

  async spendSince(keyId: string, since: number): Promise<number> {
    const { rows } = await this.#pool.query<{ spend: number }>(
      'SELECT COALESCE(SUM(cost_usd), 0)::float8 AS spend FROM switchyard_usage WHERE key_id = $1 AND created_at >= $2',
      [keyId, since],
    );
    return rows[0]?.spend ?? 0;
  }

  async usageTotals(filter: UsageFilter, groupBy?: UsageGroupBy): Promise<UsageTotals[]> {
    const params: unknown[] = [];
    const where = usageConditions(filter, (value) => {
      params.push(value);
      return `$${params.length}`;
    });
    const group = groupBy ? GROUP_COLUMN[groupBy] : undefined;
    if (groupBy && SPARSE_GROUPS.includes(groupBy)) where.push(`${group} IS NOT NULL`);
    const sql = `SELECT ${group ? `${group} AS "group", ` : ''}COUNT(*)::float8 AS requests, COALESCE(SUM(prompt_tokens), 0)::float8 AS prompt_tokens,
      COALESCE(SUM(completion_tokens), 0)::float8 AS completion_tokens, COALESCE(SUM(cost_usd), 0)::float8 AS cost_usd,
      COUNT(*) FILTER (WHERE cache_hit)::float8 AS cache_hits FROM switchyard_usage
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${group ? 'GROUP BY 1 ORDER BY 1' : ''}`;
    const { rows } = await this.#pool.query<Omit<UsageTotals, 'total_tokens'>>(sql, params);
    return rows.map((r) => ({ ...r, total_tokens: r.prompt_tokens + r.completion_tokens }));
  }

  /** Rows ordered by `created_at`, then `request_id` in byte order (`COLLATE "C"`, as SQLite compares text). */
  async listUsage(query: UsageQuery): Promise<UsageRow[]> {
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = usageConditions(query, param);
    if (query.status_min !== undefined) where.push(`status >= ${param(query.status_min)}`);
    if (query.status_max !== undefined) where.push(`status <= ${param(query.status_max)}`);
    if (query.before) {
      const before = param(query.before.created_at);
      where.push(
        query.before.request_id === undefined
          ? `created_at < ${before}`
          : `(created_at < ${before} OR (created_at = ${before} AND request_id COLLATE "C" < ${param(query.before.request_id)}))`,
      );
    }
    const columns = USAGE_COLUMNS.map(([column]) =>
      column === 'created_at' ? 'created_at::float8 AS created_at' : column,
    ).join(', ');
    const { rows } = await this.#pool.query<UsageRow>(
      `SELECT ${columns} FROM switchyard_usage ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, request_id COLLATE "C" DESC LIMIT ${param(query.limit)}`,
      params,
    );
    return rows;
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    await this.#pool.query(
      'INSERT INTO switchyard_audit (id, created_at, actor, action, target, source_address, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [
        entry.id,
        entry.created_at,
        entry.actor,
        entry.action,
        entry.target,
        entry.source_address,
        jsonText(entry.before),
        jsonText(entry.after),
      ],
    );
  }

  /** Entries ordered by `created_at`, then `id` in byte order (`COLLATE "C"`, as SQLite compares text). */
  async listAudit(query: AuditQuery): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (query.from !== undefined) where.push(`created_at >= ${param(query.from)}`);
    if (query.to !== undefined) where.push(`created_at < ${param(query.to)}`);
    if (query.actor) where.push(`actor = ${param(query.actor)}`);
    if (query.target) where.push(`target = ${param(query.target)}`);
    if (query.action) where.push(`action = ${param(query.action)}`);
    if (query.before) {
      const before = param(query.before.created_at);
      where.push(
        query.before.id === undefined
          ? `created_at < ${before}`
          : `(created_at < ${before} OR (created_at = ${before} AND id COLLATE "C" < ${param(query.before.id)}))`,
      );
    }
    const { rows } = await this.#pool.query<AuditEntry>(
      `SELECT id, created_at::float8 AS created_at, actor, action, target, source_address, before, after FROM switchyard_audit
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${param(query.limit)}`,
      params,
    );
    return rows;
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
