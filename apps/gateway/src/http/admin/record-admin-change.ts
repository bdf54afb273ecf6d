import type { Accounts, AuditInput } from '@switchyard/accounts';
import type { Request, Response } from 'express';
import { adminIdentity } from './admin-identity.js';

/**
 * Records one admin change in the audit log, as the signed-in caller (`actor`) from the client's address (`req.ip`,
 * which follows `server.trust_proxy`). `before` and `after` are the target as the admin API shows it; secrets are
 * removed by the log at any depth. Resolves once stored (a failed write is logged, never thrown).
 * @example await recordAdminChange(accounts, req, res, { action: 'key.update', target: id, before, after });
 */
export function recordAdminChange(
  accounts: Accounts,
  req: Request,
  res: Response,
  change: Pick<AuditInput, 'action' | 'target' | 'before' | 'after'>,
): Promise<void> {
  return accounts.audit.record({ ...change, actor: adminIdentity(res).actor, source_address: req.ip ?? null });
}

/** A view as a plain object for `before`/`after` (undefined becomes null). */
export function auditValue(view: object | undefined | null): Record<string, unknown> | null {
  return view ? { ...view } : null;
}
