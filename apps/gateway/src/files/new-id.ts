import { randomBytes } from 'node:crypto';

/**
 * A new object id: `prefix` (`file-`, `batch_`, `batch_req_`), then the time in ms as 12 hex digits (so ids of one
 * second sort by creation), then 16 random hex digits; e.g. `file-019c2b4f1a2e8f3e6b1c0d9a7e24`.
 */
export function newId(prefix: string): string {
  return `${prefix}${Date.now().toString(16).padStart(12, '0')}${randomBytes(8).toString('hex')}`;
}
