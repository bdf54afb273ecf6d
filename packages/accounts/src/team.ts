import type { LimitFields } from './limit-fields.js';

/**
 * A team: a group of virtual keys (each naming it in `team_id`) sharing the team's limits, as stored and as the admin
 * API shows it. A call of a member key is admitted only when both the key and the team admit it.
 */
export interface Team extends LimitFields {
  /** `team_` and 32 hex digits. */
  id: string;
  name: string;
  /** The team's organisation (`org_…`), whose limits apply too; null or absent = none. */
  organization_id?: string | null;
  metadata: Record<string, unknown> | null;
  /** ISO-8601. */
  created_at: string;
}
