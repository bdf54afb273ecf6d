import type { Accounts } from '@switchyard/accounts';
import { invalidRequestError } from '@switchyard/core';
import type { Router } from 'express';
import { cookieSession } from './admin-authentication.js';
import { adminIdentity } from './admin-identity.js';
import { SESSION_COOKIE, setCookie } from './admin-session-cookie.js';
import type { AdminSso } from './admin-sso.js';

/**
 * The signed-in caller, after authentication: `GET /session` (`actor`, `role`, `teams`, `method`, and for a cookie
 * session its `csrf_token` and `expires_at`), `POST /session` (the console's master-key sign-in, no body (400
 * otherwise): recorded as `sign_in`, answers like GET) and `DELETE /session` (sign-out: ends a cookie session on every replica, clears the
 * cookie and records `sign_out`; 204).
 */
export function addSessionRoutes(router: Router, accounts: Accounts, sso: AdminSso | undefined): void {
  const view = (res: Parameters<typeof adminIdentity>[0]) => {
    const { actor, role, teams, method } = adminIdentity(res);
    const cookie = cookieSession(res);
    return {
      actor,
      role,
      teams,
      method,
      csrf_token: cookie?.session.csrfToken ?? null,
      expires_at: cookie ? new Date(cookie.session.expiresAt).toISOString() : null,
    };
  };
  router.get('/session', (_req, res) => {
    res.json(view(res));
  });
  router.post('/session', async (req, res) => {
    const length = req.get('content-length');
    if ((length !== undefined && length !== '0') || req.get('transfer-encoding') !== undefined)
      throw invalidRequestError('POST /admin/session takes no body.');
    if (!cookieSession(res))
      await accounts.audit.record({
        actor: adminIdentity(res).actor,
        action: 'sign_in',
        source_address: req.ip ?? null,
        after: { method: 'master_key', role: 'admin' },
      });
    res.json(view(res));
  });
  router.delete('/session', async (req, res) => {
    const cookie = cookieSession(res);
    if (cookie && sso) {
      await sso.sessions.close(cookie.id);
      setCookie(res, SESSION_COOKIE, '', {
        path: req.baseUrl || '/',
        maxAgeSeconds: 0,
        secure: sso.secure(req),
        sameSite: 'Strict',
      });
      await accounts.audit.record({
        actor: cookie.session.identity.actor,
        action: 'sign_out',
        source_address: req.ip ?? null,
        after: { method: cookie.session.identity.method },
      });
    }
    res.status(204).end();
  });
}
