import type { AdminApi } from './api.js';
import type { RequestRow } from './api-types.js';

/**
 * The ledger row of one request (`x-request-id`) of `model`, from `GET /admin/requests`. The gateway writes the row
 * just after the response ends, so this asks up to `tries` times, `delayMs` apart; undefined when it never appears.
 */
export async function findLedgerRow(
  api: AdminApi,
  model: string,
  requestId: string,
  tries = 20,
  delayMs = 150,
): Promise<RequestRow | undefined> {
  for (let i = 0; i < tries; i++) {
    const page = await api.requests({ model, limit: 20 });
    const row = page.data.find((r) => r.request_id === requestId);
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  return undefined;
}
