import type { LimitFields } from './limit-fields.js';

/**
 * An organisation: a group of teams (each naming it in `organization_id`) sharing the organisation's limits, as stored
 * and as the admin API shows it. A call of a key of one of its teams is admitted only when the key, its team and the
 * organisation all admit it; the team's and the key's `models` lists narrow the organisation's, never widen it.
 */
export interface Organization extends LimitFields {
  /** `org_` and 32 hex digits. */
  id: string;
  name: string;
  metadata: Record<string, unknown> | null;
  /** ISO-8601. */
  created_at: string;
}
