import { optionalLimits, type VirtualKey } from '@switchyard/accounts';
import { LIMIT_COLUMNS } from './group-table.js';

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

/** The columns of `switchyard_keys`, in the order {@link keyParams} gives them. */
export const KEY_COLUMNS = [
  'id',
  'name',
  'key_hash',
  'key_prefix',
  'models',
  'rpm_limit',
  'tpm_limit',
  'budget_usd',
  'budget_period',
  'expires_at',
  'metadata',
  'created_at',
  'revoked_at',
  'previous_key_hash',
  'previous_key_prefix',
  'previous_key_expires_at',
  'rotated_at',
  'team_id',
  ...LIMIT_COLUMNS,
] as const;

/** The columns a rotation writes ({@link KEY_COLUMNS} minus these is what an update writes). */
export const SECRET_COLUMNS: ReadonlySet<string> = new Set([
  'key_hash',
  'key_prefix',
  'previous_key_hash',
  'previous_key_prefix',
  'previous_key_expires_at',
  'rotated_at',
]);
/** Query parameters of a key, in {@link KEY_COLUMNS} order (jsonb sent as JSON text). */
export function keyParams(key: VirtualKey): unknown[] {
  const full = { ...key, ...optionalLimits(key) } as Record<string, unknown>;
  return KEY_COLUMNS.map((column) =>
    column === 'metadata' ? (full.metadata == null ? null : JSON.stringify(full.metadata)) : (full[column] ?? null),
  );
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
