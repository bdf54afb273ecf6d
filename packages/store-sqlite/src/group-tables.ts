import { columnValues, GROUP_COLUMNS, jsonText, type LimitGroup } from '@switchyard/accounts';
import type Database from 'better-sqlite3';

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

/**
 * The row SQLite stores for a key, team or organisation: every one of `columns`, absent fields as NULL, `models` and
 * `metadata` as JSON text.
 */
export function toStoredRow(
  record: { models: string[] | null; metadata: Record<string, unknown> | null },
  columns: readonly string[],
) {
  return { ...columnValues(record, columns), models: jsonText(record.models), metadata: jsonText(record.metadata) };
}

/** `INSERT` of `columns` into `table`, bound by name (`@column`). */
export const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
/** `UPDATE` of `columns` of the row of `table` whose `id` is `@id`, bound by name. */
export const updateSql = (table: string, columns: readonly string[]) =>
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
    return toStoredRow(group, this.#columns);
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
