import {
  type AccountStore,
  type AuditEntry,
  type AuditQuery,
  jsonText,
  KEY_COLUMNS,
  KEY_SECRET_COLUMNS,
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
import Database from 'better-sqlite3';
import {
  ADDED_INDEXES_SQL,
  ADDED_KEY_COLUMNS,
  ADDED_TEAM_COLUMNS,
  ADDED_USAGE_COLUMNS,
  KEY_INDEXES_SQL,
  SCHEMA_SQL,
} from './schema-sql.js';
import { SqliteAdminSessions } from './sqlite-admin-sessions.js';
import { fromRow, insertSql, SqliteGroupTable, type Stored, toStoredRow, updateSql } from './group-tables.js';
import { usageWhere } from './usage-where.js';

type KeyRow = Stored<VirtualKey>;

/** A key as SQLite stores it: lists and objects as JSON text, absent optional fields as NULL. */
const toRow = (key: VirtualKey) => toStoredRow(key, KEY_COLUMNS);
const SECRET_COLUMNS: ReadonlySet<string> = new Set(KEY_SECRET_COLUMNS);
/** The key columns an update writes: all but the id, the creation time and the secret ones. */
const KEY_UPDATED = KEY_COLUMNS.filter((c) => c !== 'id' && c !== 'created_at' && !SECRET_COLUMNS.has(c));

const GROUP_COLUMN: Record<UsageGroupBy, string> = {
  key: 'key_id',
  model: 'model',
  day: "strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')",
  status: 'CAST(status AS TEXT)',
  session: 'session_id',
  agent: 'agent_id',
  team: 'team_id',
  organization: 'organization_id',
  end_user: 'end_user',
};

/**
 * The {@link AccountStore} on SQLite (better-sqlite3, WAL mode): one file, or `:memory:` for tests. Keys are stored
 * as SHA-256 hashes; ledger rows are appended in one transaction per batch.
 * @see https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md
 */
export class SqliteAccountStore extends TableBackedAccountStore implements AccountStore {
  readonly #db: Database.Database;
  readonly #insertUsage: Database.Statement;

  /** Opens (creating if needed) the database at `path`. Throws when the file cannot be opened. */
  constructor(path: string) {
    super();
    this.#db = new Database(path);
    if (path !== ':memory:') this.#db.pragma('journal_mode = WAL');
    this.#db.exec(SCHEMA_SQL);
    const sessions = new SqliteAdminSessions(this.#db);
    const columns = new Set(
      (this.#db.prepare('PRAGMA table_info(usage)').all() as { name: string }[]).map((c) => c.name),
    );
    for (const [name, sql] of Object.entries(ADDED_USAGE_COLUMNS))
      if (!columns.has(name)) this.#db.exec(`ALTER TABLE usage ADD COLUMN ${name} ${sql}`);
    const keyColumns = new Set(
      (this.#db.prepare('PRAGMA table_info(keys)').all() as { name: string }[]).map((c) => c.name),
    );
    for (const [name, sql] of Object.entries(ADDED_KEY_COLUMNS))
      if (!keyColumns.has(name)) this.#db.exec(`ALTER TABLE keys ADD COLUMN ${name} ${sql}`);
    const teamColumns = new Set(
      (this.#db.prepare('PRAGMA table_info(teams)').all() as { name: string }[]).map((c) => c.name),
    );
    for (const [name, sql] of Object.entries(ADDED_TEAM_COLUMNS))
      if (!teamColumns.has(name)) this.#db.exec(`ALTER TABLE teams ADD COLUMN ${name} ${sql}`);
    this.useTables({
      teams: new SqliteGroupTable<Team>(this.#db, 'teams', Object.keys(ADDED_TEAM_COLUMNS)),
      organizations: new SqliteGroupTable<Organization>(this.#db, 'organizations'),
      sessions,
    });
    this.#db.exec(KEY_INDEXES_SQL);
    this.#db.exec(ADDED_INDEXES_SQL);
    this.#insertUsage = this.#db.prepare(
      `INSERT INTO usage (request_id, key_id, model, provider, upstream_model, prompt_tokens, completion_tokens, cost_usd, price_source, latency_ms, ttfb_ms, status, stream, created_at, attempts, usage_estimated, cache_hit, hedged, stream_failover, operation, session_id, agent_id, parent_agent_id, batch_id, team_id, end_user, organization_id)
       VALUES (@request_id, @key_id, @model, @provider, @upstream_model, @prompt_tokens, @completion_tokens, @cost_usd, @price_source, @latency_ms, @ttfb_ms, @status, @stream, @created_at, @attempts, @usage_estimated, @cache_hit, @hedged, @stream_failover, @operation, @session_id, @agent_id, @parent_agent_id, @batch_id, @team_id, @end_user, @organization_id)`,
    );
  }

  async listKeys(): Promise<VirtualKey[]> {
    return (this.#db.prepare('SELECT * FROM keys ORDER BY created_at, id').all() as KeyRow[]).map((row) =>
      fromRow<VirtualKey>(row),
    );
  }

  async getKey(id: string): Promise<VirtualKey | undefined> {
    const row = this.#db.prepare('SELECT * FROM keys WHERE id = ?').get(id) as KeyRow | undefined;
    return row && fromRow<VirtualKey>(row);
  }

  async getKeyByHash(keyHash: string): Promise<VirtualKey | undefined> {
    const row = this.#db
      .prepare('SELECT * FROM keys WHERE key_hash = @hash OR previous_key_hash = @hash')
      .get({ hash: keyHash }) as KeyRow | undefined;
    return row && fromRow<VirtualKey>(row);
  }

  async insertKey(key: VirtualKey): Promise<void> {
    this.#db.prepare(insertSql('keys', KEY_COLUMNS)).run(toRow(key));
  }

  async updateKey(key: VirtualKey): Promise<void> {
    this.#db.prepare(updateSql('keys', KEY_UPDATED)).run(toRow(key));
  }

  async rotateKeySecret(key: VirtualKey): Promise<void> {
    this.#db
      .prepare(
        `UPDATE keys SET key_hash = @key_hash, key_prefix = @key_prefix, previous_key_hash = @previous_key_hash, previous_key_prefix = @previous_key_prefix,
         previous_key_expires_at = @previous_key_expires_at, rotated_at = @rotated_at WHERE id = @id`,
      )
      .run(toRow(key));
  }

  async appendUsage(rows: readonly UsageRow[]): Promise<void> {
    this.#db.transaction((batch: readonly UsageRow[]) => {
      for (const row of batch) {
        this.#insertUsage.run({
          ...row,
          price_source: row.price_source ?? null,
          stream: row.stream ? 1 : 0,
          attempts: row.attempts ?? 1,
          usage_estimated: row.usage_estimated ? 1 : 0,
          cache_hit: row.cache_hit ? 1 : 0,
          hedged: row.hedged ? 1 : 0,
          stream_failover: row.stream_failover ? 1 : 0,
          operation: row.operation ?? null,
          session_id: row.session_id ?? null,
          agent_id: row.agent_id ?? null,
          parent_agent_id: row.parent_agent_id ?? null,
          batch_id: row.batch_id ?? null,
          team_id: row.team_id ?? null,
          end_user: row.end_user ?? null,
          organization_id: row.organization_id ?? null,
        });
      }
    })(rows);
  }

  async recentUsage(keyId: string | UsageFilter, since: number): Promise<{ requests: number; tokens: number }> {
    const filter = typeof keyId === 'string' ? { key_id: keyId } : keyId;
    const { where, params } = usageWhere({ ...filter, from: since });
    const row = this.#db
      .prepare(
        `SELECT COUNT(*) AS requests, COALESCE(SUM(prompt_tokens + completion_tokens), 0) AS tokens FROM usage WHERE ${where.join(' AND ')} AND (attempts > 0 OR cache_hit = 1)`,
      )
      .get(params) as { requests: number; tokens: number };
    return { requests: row.requests, tokens: row.tokens };
  }

  async spendSince(keyId: string, since: number): Promise<number> {
    const row = this.#db
      .prepare('SELECT COALESCE(SUM(cost_usd), 0) AS spend FROM usage WHERE key_id = ? AND created_at >= ?')
      .get(keyId, since) as { spend: number };
    return row.spend;
  }

  async usageTotals(filter: UsageFilter, groupBy?: UsageGroupBy): Promise<UsageTotals[]> {
    const { where, params } = usageWhere(filter);
    const group = groupBy ? GROUP_COLUMN[groupBy] : undefined;
    if (groupBy && SPARSE_GROUPS.includes(groupBy)) where.push(`${group} IS NOT NULL`);
    const sql = `SELECT ${group ? `${group} AS "group", ` : ''}COUNT(*) AS requests, COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens,
      COALESCE(SUM(completion_tokens), 0) AS completion_tokens, COALESCE(SUM(cost_usd), 0) AS cost_usd,
      COALESCE(SUM(cache_hit), 0) AS cache_hits FROM usage
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${group ? `GROUP BY 1 ORDER BY 1` : ''}`;
    return (this.#db.prepare(sql).all(params) as Omit<UsageTotals, 'total_tokens'>[]).map((r) => ({
      ...r,
      total_tokens: r.prompt_tokens + r.completion_tokens,
    }));
  }

  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  async listUsage(query: UsageQuery): Promise<UsageRow[]> {
    const { where, params, add } = usageWhere(query);
    params.limit = query.limit;
    add('status >= @status_min', 'status_min', query.status_min);
    add('status <= @status_max', 'status_max', query.status_max);
    if (query.before?.request_id !== undefined) {
      add(
        '(created_at < @before OR (created_at = @before AND request_id < @before_id))',
        'before',
        query.before.created_at,
      );
      params.before_id = query.before.request_id;
    } else add('created_at < @before', 'before', query.before?.created_at);
    const sql = `SELECT * FROM usage ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, request_id DESC LIMIT @limit`;
    type StoredRow = Omit<UsageRow, 'stream' | 'usage_estimated' | 'cache_hit' | 'hedged' | 'stream_failover'> & {
      stream: number;
      usage_estimated: number;
      cache_hit: number;
      hedged: number;
      stream_failover: number;
    };
    return (this.#db.prepare(sql).all(params) as StoredRow[]).map((r) => ({
      ...r,
      stream: r.stream === 1,
      usage_estimated: r.usage_estimated === 1,
      cache_hit: r.cache_hit === 1,
      hedged: r.hedged === 1,
      stream_failover: r.stream_failover === 1,
    }));
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    this.#db
      .prepare(
        'INSERT INTO audit (id, created_at, actor, action, target, source_address, before, after) VALUES (@id, @created_at, @actor, @action, @target, @source_address, @before, @after)',
      )
      .run({
        ...entry,
        before: jsonText(entry.before),
        after: jsonText(entry.after),
      });
  }

  async listAudit(query: AuditQuery): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: query.limit };
    const add = (clause: string, name: string, value: unknown) => {
      if (value === undefined || value === '') return;
      where.push(clause);
      params[name] = value;
    };
    add('created_at >= @from', 'from', query.from);
    add('created_at < @to', 'to', query.to);
    add('actor = @actor', 'actor', query.actor);
    add('target = @target', 'target', query.target);
    add('action = @action', 'action', query.action);
    if (query.before?.id !== undefined) {
      add('(created_at < @before OR (created_at = @before AND id < @before_id))', 'before', query.before.created_at);
      params.before_id = query.before.id;
    } else add('created_at < @before', 'before', query.before?.created_at);
    const sql = `SELECT * FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT @limit`;
    type StoredEntry = Omit<AuditEntry, 'before' | 'after'> & { before: string | null; after: string | null };
    return (this.#db.prepare(sql).all(params) as StoredEntry[]).map((e) => ({
      ...e,
      before: e.before === null ? null : (JSON.parse(e.before) as Record<string, unknown>),
      after: e.after === null ? null : (JSON.parse(e.after) as Record<string, unknown>),
    }));
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}
