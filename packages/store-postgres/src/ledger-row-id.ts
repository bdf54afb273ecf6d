import { randomUUID } from 'node:crypto';

/**
 * This process's prefix of ledger row ids: the first four groups of a random (version 4) UUID, 74 random bits, with
 * the trailing dash (`xxxxxxxx-xxxx-4xxx-yxxx-`).
 */
const PREFIX = randomUUID().slice(0, 24);
/** Row ids this process handed out. */
let issued = 0;

/**
 * A fresh ledger row id (`switchyard_usage.row_id`, a `uuid`): this process's random prefix and a counter in the last
 * group (12 hex digits). Unique within the process by the counter and between processes by the prefix (74 random
 * bits), the id only has to make a retried batch idempotent (`ON CONFLICT (row_id) DO NOTHING`). Cheaper than a
 * `randomUUID()` per row (one short string instead of the 16-byte-to-hex build), and one process's rows take
 * neighbouring places in the primary key's index instead of random ones.
 * @see https://www.rfc-editor.org/rfc/rfc9562#section-5.4
 */
export function ledgerRowId(): string {
  return PREFIX + (issued++).toString(16).padStart(12, '0');
}
