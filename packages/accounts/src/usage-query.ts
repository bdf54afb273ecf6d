/**
 * Which ledger rows to list (`GET /admin/requests`), newest first: ordered by `created_at` then `request_id`, both
 * descending, so that a cursor of both never skips or repeats rows that share a millisecond.
 */
export interface UsageQuery {
  /** Only this key's rows (a virtual key id, or `static`). */
  key_id?: string;
  /** Only rows of this requested model id. */
  model?: string;
  /** Only rows of keys of this team (at the time of the call). */
  team_id?: string;
  /** Only rows of keys whose team belonged to this organisation (at the time of the call). */
  organization_id?: string;
  /** Only rows of this end user. */
  end_user?: string;
  /** Only rows of this agent session. */
  session_id?: string;
  /** Only rows at or after this time, unix ms. */
  from?: number;
  /** Only rows before this time, unix ms. */
  to?: number;
  /** Lowest HTTP status to include (inclusive). */
  status_min?: number;
  /** Highest HTTP status to include (inclusive). */
  status_max?: number;
  /**
   * Paging cursor: only rows older than this. With `request_id`, rows of the same `created_at` (unix ms) whose
   * `request_id` sorts before it are included too.
   */
  before?: { created_at: number; request_id?: string };
  /** Most rows to return, 1 to 1,000. */
  limit: number;
}
