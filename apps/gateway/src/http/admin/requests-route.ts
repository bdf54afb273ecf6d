import type { Accounts } from '@switchyard/accounts';
import type { Router } from 'express';
import { encodeRequestsCursor, parseRequestsQuery } from './requests-query.js';

/**
 * `GET /admin/requests?key=&team=&model=&status=&before=&limit=`: ledger rows, newest first, each with the key's name
 * (`key_name`, null for config keys) and `total_tokens`; `has_more` and `next_before` (pass it as `before` for the
 * next page). Pending ledger rows are written first.
 */
export function addRequestsRoute(router: Router, accounts: Accounts): void {
  router.get('/requests', async (req, res) => {
    const { query, limit } = parseRequestsQuery(req);
    const rows = await accounts.requests(query);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    res.json({
      object: 'list',
      data: page.map((row) => ({
        ...row,
        key_name: accounts.keys.get(row.key_id)?.name ?? null,
        total_tokens: row.prompt_tokens + row.completion_tokens,
      })),
      has_more: rows.length > limit,
      next_before: rows.length > limit && last ? encodeRequestsCursor(last) : null,
    });
  });
}
