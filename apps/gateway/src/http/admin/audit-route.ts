import type { Accounts, AuditEntry, AuditQuery } from '@switchyard/accounts';
import { invalidRequestError } from '@switchyard/core';
import type { Request, Router } from 'express';
import { parseTimeParam } from '../routes/usage-query.js';

/** Entries per page of `GET /admin/audit` when `limit` is absent, and the most a page may hold. */
export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 1000;

const encodeCursor = (entry: AuditEntry) =>
  Buffer.from(JSON.stringify([entry.created_at, entry.id])).toString('base64url');

function parseCursor(value: unknown): AuditQuery['before'] {
  if (value === undefined || value === '') return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(String(value), 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && Number.isFinite(parsed[0]) && typeof parsed[1] === 'string')
      return { created_at: parsed[0], id: parsed[1] };
  } catch {}
  throw invalidRequestError("Invalid 'before': expected a 'next_before' cursor from the previous page.", 'before');
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Reads `?from=&to=&actor=&target=&action=&before=&limit=`, asking for one entry more than `limit`. Throws 400 naming a bad one. */
export function parseAuditQuery(req: Request): { query: AuditQuery; limit: number } {
  const q = req.query as Record<string, unknown>;
  let limit = AUDIT_DEFAULT_LIMIT;
  if (q.limit !== undefined && q.limit !== '') {
    limit = Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_MAX_LIMIT)
      throw invalidRequestError(`Invalid 'limit': expected an integer from 1 to ${AUDIT_MAX_LIMIT}.`, 'limit');
  }
  const query: AuditQuery = {
    limit: limit + 1,
    from: parseTimeParam(q.from, 'from'),
    to: parseTimeParam(q.to, 'to'),
    before: parseCursor(q.before),
  };
  for (const name of ['actor', 'target', 'action'] as const) {
    const value = text(q[name]);
    if (value !== undefined) query[name] = value;
  }
  return { query, limit };
}

/**
 * `GET /admin/audit?from=&to=&actor=&target=&action=&before=&limit=`: audit log entries (`id`, `created_at` as
 * ISO-8601, `actor`, `action`, `target`, `source_address`, `before`, `after`), newest first; `from`/`to` are ISO-8601 or
 * unix ms, `limit` 1 to 1,000 (default 50); `has_more` and `next_before` (pass it as `before` for the next page).
 */
export function addAuditRoute(router: Router, accounts: Accounts): void {
  router.get('/audit', async (req, res) => {
    const { query, limit } = parseAuditQuery(req);
    const entries = await accounts.audit.list(query);
    const page = entries.slice(0, limit);
    const last = page.at(-1);
    res.json({
      object: 'list',
      data: page.map((entry) => ({ ...entry, created_at: new Date(entry.created_at).toISOString() })),
      has_more: entries.length > limit,
      next_before: entries.length > limit && last ? encodeCursor(last) : null,
    });
  });
}
