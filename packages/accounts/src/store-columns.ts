import { optionalLimits } from './limit-fields.js';

/**
 * The limit columns that keys, teams and organisations share in every account store, after the original ones: the
 * optional fields of `LimitFields` (stored as NULL when absent).
 */
export const LIMIT_COLUMNS = [
  'concurrency_limit',
  'budget_started_at',
  'end_user_budget_usd',
  'end_user_budget_period',
  'end_user_rpm_limit',
  'session_budget_usd',
  'session_rpm_limit',
] as const;

/** The columns of a team or organisation row in every account store (teams add `organization_id`). */
export const GROUP_COLUMNS = [
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

/** The key columns only a rotation of the secret writes (an update of a key leaves them as stored). */
export const KEY_SECRET_COLUMNS = [
  'key_hash',
  'key_prefix',
  'previous_key_hash',
  'previous_key_prefix',
  'previous_key_expires_at',
  'rotated_at',
] as const;

/** The columns of a virtual key row in every account store, in the order the stores bind them. */
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

/**
 * The values of a key, team or organisation for `columns` (e.g. {@link KEY_COLUMNS}), as a store writes them: every
 * column present, an absent field (optional limits included) as `null`. Lists and objects are left as they are: each
 * store encodes them its own way (JSON text, `text[]`, `jsonb`).
 */
export function columnValues(record: object, columns: readonly string[]): Record<string, unknown> {
  const full: Record<string, unknown> = {
    ...record,
    ...optionalLimits(record as Parameters<typeof optionalLimits>[0]),
  };
  return Object.fromEntries(columns.map((column) => [column, full[column] ?? null]));
}

/** A list or object as the JSON text a store keeps in a text or `jsonb` column; `null` (or absent) as `null`. */
export function jsonText(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
