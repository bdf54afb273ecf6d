import type { Accounts, Principal } from '@switchyard/accounts';
import { GatewayError, type GatewayErrorCode } from '@switchyard/core';
import type { Request, RequestHandler, Response } from 'express';
import { MASTER_IDENTITY, setAdminIdentity } from './admin-identity.js';
import { readCookie, SESSION_COOKIE } from './admin-session-cookie.js';
import { type AdminSessions, csrfTokenMatches, type ResolvedSession } from './admin-sessions.js';

/** Methods that change nothing: a cookie session needs no CSRF token for them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The request header carrying a cookie session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

/** The cookie session a request was authenticated with (undefined for bearer requests). */
export function cookieSession(res: Response): { id: string; session: ResolvedSession } | undefined {
  return res.locals.adminCookieSession as { id: string; session: ResolvedSession } | undefined;
}

const refused = (status: 401 | 403, code: GatewayErrorCode, message: string) =>
  new GatewayError({ status, type: status === 401 ? 'authentication_error' : 'invalid_request_error', code, message });

/**
 * The admin API's authentication. A request with an `Authorization` header must carry the master key (role `admin`):
 * a missing or unknown key gets 401, a valid key that is not the master key 403, each recorded as `sign_in.failed`.
 * Without that header, a console session cookie (see {@link AdminSessions}) signs the request in with the session's
 * role; a state-changing method (anything but GET, HEAD, OPTIONS) must then also send the session's CSRF token in
 * `x-csrf-token`, else 403 `csrf_token_invalid`. An unknown or expired session gets 401 `session_expired`.
 */
export function authenticateAdmin(accounts: Accounts, sessions: AdminSessions | undefined): RequestHandler {
  return async (req, res, next) => {
    const authorization = req.get('authorization');
    const cookie = authorization === undefined && sessions ? readCookie(req, SESSION_COOKIE) : undefined;
    if (cookie !== undefined && sessions) {
      const session = await sessions.resolve(cookie);
      if (!session) throw refused(401, 'session_expired', 'The console session has ended: sign in again.');
      if (!SAFE_METHODS.has(req.method) && !csrfTokenMatches(req.get(CSRF_HEADER), session.csrfToken))
        throw refused(403, 'csrf_token_invalid', `A console session must send its CSRF token in ${CSRF_HEADER}.`);
      setAdminIdentity(res, session.identity);
      res.locals.adminCookieSession = { id: cookie, session };
      return next();
    }
    // The console asks who is signed in on every load: no credentials at all there is no failed sign-in.
    if (authorization === undefined && cookie === undefined && req.method === 'GET' && req.path === '/session')
      throw refused(401, 'not_signed_in', 'Not signed in.');
    if (accounts.isMaster(authorization)) {
      setAdminIdentity(res, MASTER_IDENTITY);
      return next();
    }
    await refuseBearer(accounts, req, authorization);
  };
}

/** Records the failed sign-in of a bearer request that is not the master key and throws its 401 or 403. */
async function refuseBearer(accounts: Accounts, req: Request, authorization: string | undefined): Promise<never> {
  const failed = (reason: string, actor = 'unknown') =>
    accounts.audit.record({
      actor,
      action: 'sign_in.failed',
      source_address: req.ip ?? null,
      after: { method: 'master_key', reason },
    });
  let principal: Principal;
  try {
    principal = await accounts.authenticate(authorization, req.ip); // 401 unless it is some valid key
  } catch (error) {
    await failed(authorization ? 'invalid credentials' : 'no credentials');
    throw error;
  }
  await failed('not the master key', principal.kind === 'virtual' ? principal.state.key.id : 'static');
  throw refused(403, 'forbidden', 'The admin API needs the master key.');
}
