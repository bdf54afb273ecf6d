import { once } from 'node:events';
import type { Accounts, UsageQuery, UsageRow } from '@switchyard/accounts';
import { invalidRequestError } from '@switchyard/core';
import type { Response, Router } from 'express';
import { parseUsageQuery } from '../routes/usage-query.js';

/** Ledger rows read from the store per page while exporting. */
const PAGE_ROWS = 1_000;

/** The columns of an export, in order. */
const COLUMNS = [
  'created_at',
  'request_id',
  'key_id',
  'team_id',
  'organization_id',
  'end_user',
  'session_id',
  'agent_id',
  'model',
  'provider',
  'upstream_model',
  'status',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cost_usd',
] as const;

type ExportRow = Record<(typeof COLUMNS)[number], string | number | null>;

function exportRow(row: UsageRow): ExportRow {
  return {
    created_at: new Date(row.created_at).toISOString(),
    request_id: row.request_id,
    key_id: row.key_id,
    team_id: row.team_id ?? null,
    organization_id: row.organization_id ?? null,
    end_user: row.end_user ?? null,
    session_id: row.session_id ?? null,
    agent_id: row.agent_id ?? null,
    model: row.model,
    provider: row.provider,
    upstream_model: row.upstream_model,
    status: row.status,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    total_tokens: row.prompt_tokens + row.completion_tokens,
    cost_usd: row.cost_usd,
  };
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; text a client sent that starts with
 * `=`, `+`, `-` or `@` is prefixed with `'` so that a spreadsheet never runs it as a formula.
 * @see https://www.rfc-editor.org/rfc/rfc4180
 * @see https://owasp.org/www-community/attacks/CSV_Injection
 */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Writes `chunk`, waiting for the socket to drain when its buffer is full (so memory stays flat for any export). */
async function write(res: Response, chunk: string): Promise<void> {
  if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
}

/**
 * `GET /admin/usage/export?format=csv|jsonl&from=&to=&key=&team=&organization=&end_user=&session=&model=`: the ledger rows of a period
 * (one per call: time, request, key, team, organisation, end user, session, agent, model, provider, status, tokens, cost in USD),
 * newest first, streamed in pages of 1,000 rows read from the store with a cursor, each written after the client has
 * taken the one before (memory stays flat however many rows). `csv` (default) has a header line; `jsonl` one JSON
 * object per line. Pending ledger rows are written first. Throws 400 naming a bad parameter. A failure after the first
 * row ends the body early (the client sees a truncated file; the status was already sent).
 */
export function addUsageExportRoute(router: Router, accounts: Accounts): void {
  router.get('/usage/export', async (req, res) => {
    const format = req.query.format === undefined || req.query.format === '' ? 'csv' : String(req.query.format);
    if (format !== 'csv' && format !== 'jsonl')
      throw invalidRequestError("Invalid 'format': expected csv or jsonl.", 'format');
    const { filter } = parseUsageQuery(req, []);
    const base: UsageQuery = { ...filter, limit: PAGE_ROWS };
    let rows = await accounts.requests(base);
    res.status(200);
    res.setHeader('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
    res.setHeader('content-disposition', `attachment; filename="switchyard-usage.${format}"`);
    if (format === 'csv') await write(res, `${COLUMNS.join(',')}\r\n`);
    try {
      while (rows.length > 0 && !res.destroyed) {
        const lines = rows.map((row) => {
          const values = exportRow(row);
          return format === 'csv'
            ? `${COLUMNS.map((c) => csvCell(values[c])).join(',')}\r\n`
            : `${JSON.stringify(values)}\n`;
        });
        await write(res, lines.join(''));
        const last = rows.at(-1) as UsageRow;
        if (rows.length < PAGE_ROWS) break;
        rows = await accounts.requests({
          ...base,
          before: { created_at: last.created_at, request_id: last.request_id },
        });
      }
    } catch (error) {
      res.destroy(error as Error);
      return;
    }
    res.end();
  });
}
