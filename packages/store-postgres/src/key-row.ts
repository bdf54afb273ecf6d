import { columnValues, jsonText, KEY_COLUMNS, KEY_SECRET_COLUMNS, type VirtualKey } from '@switchyard/accounts';

/** A `switchyard_keys` row as node-postgres returns it (timestamptz as Date, text[] as array, jsonb parsed). */
export interface KeyRow
  extends Omit<
    VirtualKey,
    'expires_at' | 'created_at' | 'revoked_at' | 'previous_key_expires_at' | 'rotated_at' | 'budget_started_at'
  > {
  expires_at: Date | null;
  created_at: Date;
  revoked_at: Date | null;
  previous_key_expires_at: Date | null;
  rotated_at: Date | null;
  budget_started_at: Date | null;
}

/** The columns of `switchyard_keys` (`KEY_COLUMNS` of the accounts package), in the order {@link keyParams} gives them. */
export { KEY_COLUMNS };

/** The columns a rotation writes ({@link KEY_COLUMNS} minus these is what an update writes). */
export const SECRET_COLUMNS: ReadonlySet<string> = new Set(KEY_SECRET_COLUMNS);

/** Query parameters of a key, in {@link KEY_COLUMNS} order (jsonb sent as JSON text). */
export function keyParams(key: VirtualKey): unknown[] {
  const values = columnValues(key, KEY_COLUMNS);
  return KEY_COLUMNS.map((column) => (column === 'metadata' ? jsonText(values.metadata) : values[column]));
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A stored row back to a key; timestamps come back as ISO-8601 in UTC (`…Z`). */
export function keyFromRow(row: KeyRow): VirtualKey {
  return {
    ...row,
    expires_at: iso(row.expires_at),
    created_at: row.created_at.toISOString(),
    revoked_at: iso(row.revoked_at),
    previous_key_expires_at: iso(row.previous_key_expires_at),
    rotated_at: iso(row.rotated_at),
    budget_started_at: iso(row.budget_started_at),
  };
}
