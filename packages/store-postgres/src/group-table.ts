import { type LimitGroup, optionalLimits } from '@switchyard/accounts';
import type pg from 'pg';

/** Limit columns keys, teams and organisations share after the original ones. */
export const LIMIT_COLUMNS = [
  'concurrency_limit',
  'budget_started_at',
  'end_user_budget_usd',
  'end_user_budget_period',
  'end_user_rpm_limit',
  'session_budget_usd',
  'session_rpm_limit',
] as const;

/** The columns of `switchyard_teams` and `switchyard_organizations` (teams add `organization_id`). */
const GROUP_COLUMNS = [
  'id',
  'name',
  'models',
  'rpm_limit',
  'tpm_limit',
  'budget_usd',
  'budget_period',
  'metadata',
  'created_at',
  ...LIMIT_COLUMNS,
] as const;

/** A group row as node-postgres returns it (timestamptz as Date, text[] as array, jsonb parsed). */
type GroupRow<T> = Omit<T, 'created_at' | 'budget_started_at'> & { created_at: Date; budget_started_at: Date | null };

/**
 * One table of {@link LimitGroup}s (`switchyard_teams`, `switchyard_organizations`): each column of `GROUP_COLUMNS`
 * and the table's `extra` ones (absent values stored as NULL, jsonb sent as JSON text, timestamps read back as
 * ISO-8601 in UTC).
 */
export class PostgresGroupTable<T extends LimitGroup> {
  readonly #columns: string[];

  constructor(
    private readonly pool: pg.Pool,
    private readonly table: string,
    extra: string[] = [],
  ) {
    this.#columns = [...GROUP_COLUMNS, ...extra];
  }

  #params(group: T): unknown[] {
    const full: Record<string, unknown> = Object.fromEntries(Object.entries({ ...group, ...optionalLimits(group) }));
    return this.#columns.map((column) =>
      column === 'metadata' ? (full.metadata == null ? null : JSON.stringify(full.metadata)) : (full[column] ?? null),
    );
  }

  #fromRow(row: GroupRow<T>): T {
    const startedAt = row.budget_started_at ? row.budget_started_at.toISOString() : null;
    return { ...row, created_at: row.created_at.toISOString(), budget_started_at: startedAt } as unknown as T;
  }

  async list(): Promise<T[]> {
    const { rows } = await this.pool.query<GroupRow<T>>(`SELECT * FROM ${this.table} ORDER BY created_at, id`);
    return rows.map((row) => this.#fromRow(row));
  }

  async get(id: string): Promise<T | undefined> {
    const { rows } = await this.pool.query<GroupRow<T>>(`SELECT * FROM ${this.table} WHERE id = $1`, [id]);
    return rows[0] && this.#fromRow(rows[0]);
  }

  async insert(group: T): Promise<void> {
    const placeholders = this.#columns.map((_, i) => `$${i + 1}`).join(', ');
    await this.pool.query(
      `INSERT INTO ${this.table} (${this.#columns.join(', ')}) VALUES (${placeholders})`,
      this.#params(group),
    );
  }

  async update(group: T): Promise<void> {
    const params = this.#params(group);
    const changed = this.#columns.flatMap((column, i) =>
      column === 'id' || column === 'created_at' ? [] : [[column, params[i]] as const],
    );
    await this.pool.query(
      `UPDATE ${this.table} SET ${changed.map(([column], i) => `${column} = $${i + 2}`).join(', ')} WHERE id = $1`,
      [group.id, ...changed.map(([, value]) => value)],
    );
  }

  async delete(id: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE id = $1`, [id]);
  }
}
