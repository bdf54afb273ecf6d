import { columnValues, GROUP_COLUMNS, jsonText, type LimitGroup } from '@switchyard/accounts';
import type pg from 'pg';

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
    const values = columnValues(group, this.#columns);
    return this.#columns.map((column) => (column === 'metadata' ? jsonText(values.metadata) : values[column]));
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
