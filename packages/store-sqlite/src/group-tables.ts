import { type LimitGroup, optionalLimits } from '@switchyard/accounts';
import type Database from 'better-sqlite3';

/** Limit columns of keys, teams and organisations after the original ones. */
export const LIMIT_COLUMNS = [
  'concurrency_limit',
  'budget_started_at',
  'end_user_budget_usd',
  'end_user_budget_period',
  'end_user_rpm_limit',
  'session_budget_usd',
  'session_rpm_limit',
];

/** The columns of the `teams` and `organizations` tables (teams add `organization_id`). */
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
];

/** A record as SQLite stores it: lists and objects as JSON text. */
export type Stored<T> = Omit<T, 'models' | 'metadata'> & { models: string | null; metadata: string | null };

/** A stored row back to its record (JSON text parsed). */
export function fromRow<T extends { models: string[] | null; metadata: Record<string, unknown> | null }>(
  row: Stored<T>,
): T {
  return {
    ...row,
    models: row.models ? (JSON.parse(row.models) as string[]) : null,
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : null,
  } as T;
}

export const insertSql = (table: string, columns: string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
export const updateSql = (table: string, columns: string[]) =>
  `UPDATE ${table} SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;

/**
 * One table of {@link LimitGroup}s (`teams`, `organizations`) in SQLite: each column of `GROUP_COLUMNS` and the
 * table's `extra` ones (absent values stored as NULL).
 */
export class SqliteGroupTable<T extends LimitGroup> {
  readonly #columns: string[];

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    extra: string[] = [],
  ) {
    this.#columns = [...GROUP_COLUMNS, ...extra];
  }

  #row(group: T): Record<string, unknown> {
    const full: Record<string, unknown> = Object.fromEntries(Object.entries({ ...group, ...optionalLimits(group) }));
    for (const column of this.#columns) full[column] ??= null;
    full.models = group.models ? JSON.stringify(group.models) : null;
    full.metadata = group.metadata ? JSON.stringify(group.metadata) : null;
    return full;
  }

  async list(): Promise<T[]> {
    const rows = this.db.prepare(`SELECT * FROM ${this.table} ORDER BY created_at, id`).all() as Stored<T>[];
    return rows.map((row) => fromRow<T>(row));
  }

  async get(id: string): Promise<T | undefined> {
    const row = this.db.prepare(`SELECT * FROM ${this.table} WHERE id = ?`).get(id) as Stored<T> | undefined;
    return row && fromRow<T>(row);
  }

  async insert(group: T): Promise<void> {
    this.db.prepare(insertSql(this.table, this.#columns)).run(this.#row(group));
  }

  async update(group: T): Promise<void> {
    const columns = this.#columns.filter((c) => c !== 'id' && c !== 'created_at');
    this.db.prepare(updateSql(this.table, columns)).run(this.#row(group));
  }

  async delete(id: string): Promise<void> {
    this.db.prepare(`DELETE FROM ${this.table} WHERE id = ?`).run(id);
  }
}
