import { z } from 'zod';
import type { DocumentParts, JsonObject } from './document-parts.js';

/** `GET /admin/session`: who is signed in (the console reads its CSRF token here). */
const sessionViewSchema = z.object({
  actor: z.string(),
  role: z.enum(['admin', 'team_admin', 'viewer']),
  teams: z.array(z.string()),
  method: z.enum(['master_key', 'oidc']),
  csrf_token: z.string().nullable().describe('a cookie session: send it in x-csrf-token on every change'),
  expires_at: z.string().nullable(),
});

const ssoInfoSchema = z.object({ enabled: z.boolean(), login_url: z.string().nullable() });

/**
 * The OpenAPI path items of the console's sign-in: `/admin/session` (the master key, or a single sign-on session
 * cookie with its CSRF token on changes) and `/admin/sso` (open). `/admin/sso/login` and `/admin/sso/callback` are
 * browser redirects of the OpenID Connect flow, there only with `admin.oidc`, and are described in
 * docs/security-admin.md.
 */
export function sessionPaths({ ref, json, adminErrors, admin }: DocumentParts): Record<string, JsonObject> {
  const view = json(ref('AdminSession', sessionViewSchema, 'output'));
  return {
    '/admin/session': {
      get: {
        summary: 'Who is signed in: role, teams, and a cookie session’s CSRF token',
        security: admin,
        responses: { '200': { description: 'OK', ...view }, ...adminErrors },
      },
      post: {
        summary: 'The console’s master-key sign-in, recorded in the audit log (no body)',
        security: admin,
        responses: { '200': { description: 'OK', ...view }, ...adminErrors },
      },
      delete: {
        summary: 'Sign out: ends a single sign-on session on every replica and clears its cookie',
        security: admin,
        responses: { '204': { description: 'Signed out' }, ...adminErrors },
      },
    },
    '/admin/sso': {
      get: {
        summary: 'Whether single sign-on (admin.oidc) is configured, and where it starts',
        responses: { '200': { description: 'OK', ...json(ref('SsoInfo', ssoInfoSchema, 'output')) } },
      },
    },
  };
}
