import type { Request, Response } from 'express';

/** The cookie holding a console session id (HTTP-only, `SameSite=Strict`, path `/admin`). */
export const SESSION_COOKIE = 'switchyard_session';
/** The cookie holding a sign-in in progress (sealed state, nonce and PKCE verifier; `SameSite=Lax`, 10 minutes). */
export const LOGIN_COOKIE = 'switchyard_login';

/** Reads one cookie of the request's `Cookie` header; undefined when absent or not decodable. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** How a cookie is set: where, for how long (seconds; 0 deletes it), and whether only over TLS. */
export interface CookieOptions {
  path: string;
  maxAgeSeconds: number;
  secure: boolean;
  sameSite: 'Strict' | 'Lax';
}

/**
 * Appends a `Set-Cookie` header: always `HttpOnly` (no script reads it), with `SameSite`, `Path`, `Max-Age` and, when
 * `secure`, `Secure`. Values must be cookie-safe (the gateway sets base64url text only).
 * @see https://httpwg.org/specs/rfc6265.html#sane-set-cookie
 */
export function setCookie(res: Response, name: string, value: string, options: CookieOptions): void {
  const parts = [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    `SameSite=${options.sameSite}`,
  ];
  if (options.secure) parts.push('Secure');
  res.append('set-cookie', parts.join('; '));
}

/**
 * Whether cookies go out with `Secure`: `true`/`false` as configured; `auto` when the redirect URI is https, the
 * connection itself is TLS, or it comes from a trusted proxy (`server.trust_proxy`) saying `x-forwarded-proto: https`.
 */
export function cookieSecure(
  req: Request,
  setting: 'auto' | boolean,
  redirectUri: string,
  isTrustedProxy: (address: string | undefined) => boolean,
): boolean {
  if (setting !== 'auto') return setting;
  if (redirectUri.startsWith('https:')) return true;
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const forwarded = req.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https' && isTrustedProxy(req.socket.remoteAddress);
}
