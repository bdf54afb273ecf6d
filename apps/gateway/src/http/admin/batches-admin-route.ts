import type { Accounts } from '@switchyard/accounts';
import type { Router } from 'express';
import type { Batches } from '../../batches/batches.js';

/**
 * `GET /admin/batches`: the batches of every key still running (at most 100, oldest first), each OpenAI's Batch object
 * with its live `request_counts` plus `key_id`, `key_name` (null for config keys) and `runner` (`gateway`, or the
 * provider whose batch API runs it). The console's Requests page shows them with their progress.
 */
export function addBatchesAdminRoute(router: Router, accounts: Accounts, batches: Batches): void {
  router.get('/batches', async (_req, res) => {
    const data = await batches.active(100);
    res.json({
      object: 'list',
      data: data.map((batch) => ({ ...batch, key_name: accounts.keys.get(String(batch.key_id))?.name ?? null })),
    });
  });
}
