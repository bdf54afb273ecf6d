import type { AdminRole } from '@switchyard/accounts';
import type { Response } from 'express';

export type { AdminRole } from '@switchyard/accounts';

/**
 * Who calls the admin API: the master key (break-glass, role `admin`) or an OpenID Connect user signed in to the
 * console, with the role and (for `team_admin`) the team ids a claim or the config mapping gave them.
 */
export interface AdminIdentity {
  /** As the audit log records it: `master_key`, or `oidc:<email or subject>`. */
  actor: string;
  role: AdminRole;
  /** Team ids a `team_admin` administers (empty for other roles). */
  teams: readonly string[];
  /** How the caller signed in. */
  method: 'master_key' | 'oidc';
}

/** The master key's identity. */
export const MASTER_IDENTITY: AdminIdentity = { actor: 'master_key', role: 'admin', teams: [], method: 'master_key' };

/** Stores the caller's identity for the admin routes (set by the admin router's authentication). */
export function setAdminIdentity(res: Response, identity: AdminIdentity): void {
  res.locals.adminIdentity = identity;
}

/** The caller's identity; throws when the admin router's authentication did not run (a programming error). */
export function adminIdentity(res: Response): AdminIdentity {
  const identity = res.locals.adminIdentity as AdminIdentity | undefined;
  if (!identity) throw new Error('adminIdentity() called outside the authenticated admin router.');
  return identity;
}
