/**
 * One entry of the audit log: an admin change (`key.create`, `key.update`, `key.revoke`, `key.rotate`, team and budget
 * changes) or a sign-in (`sign_in`, `sign_in.failed`, `sign_out`). Never holds a secret: `before` and `after` are views
 * as the admin API shows them (no secrets, no hashes). Entries are only ever appended.
 */
export interface AuditEntry {
  /** `aud_` and 32 hex digits, unique. */
  id: string;
  /** When it happened, unix ms. */
  created_at: number;
  /** Who: `master_key`, an OpenID Connect user (`oidc:<email or subject>`), or what a failed sign-in claimed to be. */
  actor: string;
  /** What, as `<object>.<verb>`: `key.create`, `key.update`, `key.revoke`, `key.rotate`, `sign_in`, `sign_in.failed`… */
  action: string;
  /** What it was done to (a key id, a team id); null for sign-ins. */
  target: string | null;
  /** The client's address (`req.ip`: behind a proxy, as `server.trust_proxy` says); null when unknown. */
  source_address: string | null;
  /** The target before the change (null for a creation or a sign-in). */
  before: Record<string, unknown> | null;
  /** The target after the change, or details of a sign-in (role, method, reason); null for a deletion. */
  after: Record<string, unknown> | null;
}

/** Which audit entries to list (`GET /admin/audit`), newest first: by `created_at`, then `id`, both descending. */
export interface AuditQuery {
  /** Only entries at or after this time, unix ms. */
  from?: number;
  /** Only entries before this time, unix ms. */
  to?: number;
  actor?: string;
  target?: string;
  action?: string;
  /** Paging cursor: only entries older than this (same `created_at` and a smaller `id` included). */
  before?: { created_at: number; id?: string };
  /** Most entries to return, 1 to 1,001. */
  limit: number;
}
