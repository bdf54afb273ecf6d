/** What a signed-in admin may do: everything, its teams' keys and usage, or read only. */
export type AdminRole = 'admin' | 'team_admin' | 'viewer';

/** The roles, most powerful first. */
export const ADMIN_ROLES: readonly AdminRole[] = ['admin', 'team_admin', 'viewer'];

/**
 * One signed-in console session, as the store keeps it. The session id itself (32 random bytes in an HTTP-only
 * cookie) is never stored: only its SHA-256, so that a copy of the table signs no one in. Roles are fixed at sign-in
 * and last until `expires_at` or sign-out.
 */
export interface AdminSession {
  /** SHA-256 (hex) of the session id the cookie carries. */
  id_hash: string;
  /** As the audit log records it: `oidc:<email or subject>`. */
  actor: string;
  role: AdminRole;
  /** Team ids a `team_admin` administers (empty for other roles). */
  teams: string[];
  /** How the session was opened. */
  method: 'oidc' | 'master_key';
  /** When it was opened, unix ms. */
  created_at: number;
  /** When it ends, unix ms; the gateway refuses it from then on. */
  expires_at: number;
}

/**
 * The console sessions of an {@link AccountStore}: a shared store (Postgres) shares them between replicas, so a
 * session opened on one is accepted by all and a sign-out on one ends it on all.
 */
export interface AdminSessionStore {
  insertAdminSession(session: AdminSession): Promise<void>;
  /** The session whose id hashes to `idHash`, expired or not; undefined when there is none. */
  getAdminSession(idHash: string): Promise<AdminSession | undefined>;
  /** Ends one session (sign-out); an unknown hash does nothing. */
  deleteAdminSession(idHash: string): Promise<void>;
  /** Deletes every session whose `expires_at` is at or before `now` (unix ms); resolves with how many. */
  deleteExpiredAdminSessions(now: number): Promise<number>;
}
