import type { Accounts } from '@switchyard/accounts';
import { GatewayError, type GatewayErrorCode } from '@switchyard/core';
import type { Request, Response, Router } from 'express';
import type { AdminSso } from './admin-sso.js';
import { LOGIN_COOKIE, readCookie, SESSION_COOKIE, setCookie } from './admin-session-cookie.js';
import { identityFromClaims } from './oidc-roles.js';
import { LOGIN_TTL_MS } from './oidc-login-state.js';

const signInRefused = (status: 400 | 403 | 502, code: GatewayErrorCode, message: string) =>
  new GatewayError({ status, type: status === 502 ? 'server_error' : 'invalid_request_error', code, message });

/**
 * Why openid-client refused a callback, for the audit log and the answer: the code and message of the error and of
 * its causes (openid-client wraps oauth4webapi's precise error, e.g. a bad signature or an expired token, in a generic
 * one). Never holds a token: the messages name checks, not values.
 */
function failureReason(error: unknown): string {
  const parts: string[] = [];
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    const code = typeof e.code === 'string' ? `${e.code}: ` : '';
    if (typeof e.message === 'string') parts.push(`${code}${e.message}`);
    e = e.cause as typeof e;
  }
  return parts.join(' (') + ')'.repeat(Math.max(0, parts.length - 1)) || 'unknown error';
}

/** Ends the sign-in in progress (its cookie is single-use) and reads what it held. */
function takeLogin(req: Request, res: Response, sso: AdminSso) {
  const login = sso.seal.open(readCookie(req, LOGIN_COOKIE));
  const path = `${req.baseUrl}/sso`;
  setCookie(res, LOGIN_COOKIE, '', { path, maxAgeSeconds: 0, secure: sso.secure(req), sameSite: 'Lax' });
  return login;
}

/**
 * The console's OpenID Connect routes, before authentication: `GET /sso` (`{enabled, login_url}`, for the sign-in
 * page), `GET /sso/login` (302 to the provider, with the sealed state, nonce and PKCE verifier in a 10-minute
 * `SameSite=Lax` cookie, since the provider's redirect back is a cross-site navigation) and `GET /sso/callback`
 * (redeems the code, verifies the ID token, maps its claims to a role, opens a session in a `SameSite=Strict`
 * HTTP-only cookie and redirects to the console). Every refusal is recorded as `sign_in.failed` with the reason, and
 * every sign-in as `sign_in`, with the client's address. Without `admin.oidc` the routes answer 404.
 */
export function addSsoRoutes(router: Router, accounts: Accounts, sso: AdminSso | undefined): void {
  router.get('/sso', (req, res) => {
    res.json({ enabled: sso !== undefined, login_url: sso ? `${req.baseUrl}/sso/login` : null });
  });
  if (!sso) return;
  router.get('/sso/login', async (req, res) => {
    let started: Awaited<ReturnType<typeof sso.oidc.startSignIn>>;
    try {
      started = await sso.oidc.startSignIn();
    } catch (error) {
      throw signInRefused(
        502,
        'oidc_provider_unavailable',
        `The OpenID provider did not answer discovery: ${failureReason(error)}`,
      );
    }
    const secure = sso.secure(req);
    const maxAgeSeconds = LOGIN_TTL_MS / 1000;
    setCookie(res, LOGIN_COOKIE, sso.seal.seal(started.login), {
      path: `${req.baseUrl}/sso`,
      maxAgeSeconds,
      secure,
      sameSite: 'Lax',
    });
    res.setHeader('cache-control', 'no-store');
    res.redirect(302, started.url.href);
  });
  router.get('/sso/callback', async (req, res) => {
    const fail = async (reason: string, actor = 'unknown') => {
      await accounts.audit.record({
        actor,
        action: 'sign_in.failed',
        source_address: req.ip ?? null,
        after: { method: 'oidc', reason },
      });
    };
    const login = takeLogin(req, res, sso);
    if (!login) {
      await fail('no sign-in in progress: the state, nonce and PKCE verifier cookie is missing, expired or altered');
      throw signInRefused(
        400,
        'sign_in_expired',
        'No sign-in in progress from this browser (or it expired): start again.',
      );
    }
    const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    let claims: Record<string, unknown>;
    try {
      claims = await sso.oidc.finishSignIn(search, login);
    } catch (error) {
      await fail(failureReason(error));
      throw signInRefused(400, 'sign_in_failed', `Sign-in refused: ${failureReason(error)}`);
    }
    const identity = identityFromClaims(claims, sso.config);
    if ('refused' in identity) {
      await fail(identity.refused, identity.actor);
      throw signInRefused(403, 'no_console_role', `Sign-in refused for ${identity.actor}: ${identity.refused}.`);
    }
    const session = await sso.sessions.open(identity);
    setCookie(res, SESSION_COOKIE, session.id, {
      path: req.baseUrl || '/',
      maxAgeSeconds: sso.config.session_ttl_seconds,
      secure: sso.secure(req),
      sameSite: 'Strict',
    });
    await accounts.audit.record({
      actor: identity.actor,
      action: 'sign_in',
      source_address: req.ip ?? null,
      after: { method: 'oidc', role: identity.role, teams: identity.teams, issuer: claims.iss, subject: claims.sub },
    });
    res.setHeader('cache-control', 'no-store');
    res.redirect(302, `${req.baseUrl.replace(/\/admin$/, '')}/ui/`);
  });
}
