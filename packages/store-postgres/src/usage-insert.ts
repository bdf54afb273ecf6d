/// <reference lib="es2024.string" />
import type { UsageRow } from '@switchyard/accounts';

/** Columns of `switchyard_usage` after `row_id`, and the Postgres type of each. */
export const USAGE_COLUMNS: readonly [keyof UsageRow, string][] = [
  ['request_id', 'text'],
  ['key_id', 'text'],
  ['model', 'text'],
  ['provider', 'text'],
  ['upstream_model', 'text'],
  ['prompt_tokens', 'integer'],
  ['completion_tokens', 'integer'],
  ['cost_usd', 'float8'],
  ['price_source', 'text'],
  ['latency_ms', 'float8'],
  ['ttfb_ms', 'float8'],
  ['status', 'integer'],
  ['stream', 'boolean'],
  ['created_at', 'bigint'],
  ['attempts', 'integer'],
  ['usage_estimated', 'boolean'],
  ['cache_hit', 'boolean'],
  ['hedged', 'boolean'],
  ['stream_failover', 'boolean'],
  ['operation', 'text'],
  ['session_id', 'text'],
  ['agent_id', 'text'],
  ['parent_agent_id', 'text'],
  ['batch_id', 'text'],
  ['team_id', 'text'],
  ['end_user', 'text'],
  ['organization_id', 'text'],
];

/** What an absent or null optional column is stored as: 1 attempt, reported usage, flags false. */
const DEFAULTS: Partial<Record<keyof UsageRow, string>> = {
  attempts: '1',
  usage_estimated: 'false',
  cache_hit: 'false',
  hedged: 'false',
  stream_failover: 'false',
};

/**
 * One ledger batch in one statement: `$1` the rows' ids (`uuid[]`), `$2` the rows as one JSON array of objects, read
 * back by column name (`json_to_recordset`; properties that are not columns are ignored), zipped with the ids in order
 * (`ROWS FROM`). Duplicate ids (a batch retried after a timeout) are skipped.
 * @see https://www.postgresql.org/docs/current/functions-json.html
 */
export const INSERT_USAGE = `INSERT INTO switchyard_usage (row_id, ${USAGE_COLUMNS.map(([c]) => c).join(', ')})
  SELECT row_id, ${USAGE_COLUMNS.map(([c]) => (DEFAULTS[c] ? `COALESCE(${c}, ${DEFAULTS[c]})` : c)).join(', ')}
  FROM ROWS FROM (unnest($1::uuid[]), json_to_recordset($2::json) AS (${USAGE_COLUMNS.map(([c, type]) => `${c} ${type}`).join(', ')}))
    AS r(row_id, ${USAGE_COLUMNS.map(([c]) => c).join(', ')})
  ON CONFLICT (row_id) DO NOTHING`;

/** Numbers JSON cannot hold as themselves, and text with lone UTF-16 surrogates (see {@link usageJson}). */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return value.isWellFormed() ? value : value.toWellFormed();
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}

/** True when a number of a row is NaN or infinite (JSON would turn it into `null`). */
function hasNonFinite(rows: readonly UsageRow[]): boolean {
  for (const row of rows)
    for (const column in row) {
      const value = row[column as keyof UsageRow];
      if (typeof value === 'number' && !Number.isFinite(value)) return true;
    }
  return false;
}

/**
 * The rows as the JSON text `INSERT_USAGE` reads, storing what pg's array parameters stored: a lone UTF-16 surrogate
 * (which `JSON.stringify` writes as a `\udXXX` escape Postgres refuses to turn into text) becomes U+FFFD, as the
 * UTF-8 encoding of a parameter turns it; NaN and ±Infinity are sent as the text `float8` reads as them (JSON has no
 * such numbers). Both are looked for only when present: the common batch is one `JSON.stringify`.
 */
export function usageJson(rows: readonly UsageRow[]): string {
  const json = JSON.stringify(rows);
  return json.includes('\\ud') || hasNonFinite(rows) ? JSON.stringify(rows, jsonSafe) : json;
}
