import { ADMIN_ROLES, type AdminRole } from '@switchyard/accounts';
import { z } from 'zod';

const roleSchema = z.enum(ADMIN_ROLES as [AdminRole, ...AdminRole[]]);

/** Loopback hosts, the only ones an `http:` issuer may name (a provider run beside the gateway, in tests or dev). */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const issuerSchema = z.url({ protocol: /^https?$/ }).refine((text) => {
  const url = new URL(text);
  return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
}, 'the issuer must be https (http only on a loopback address)');

/** A role, or a role with the teams it administers. */
const mappedRoleSchema = z.union([
  roleSchema,
  z.strictObject({ role: roleSchema, teams: z.array(z.string().min(1)).default([]) }),
]);

/**
 * `admin.oidc`: OpenID Connect sign-in for the console (authorization code flow with PKCE, discovery from `issuer`,
 * ID tokens verified against the provider's JWKS). `client_secret` or `client_secret_file` (read at start; neither
 * for a public client). `redirect_uri` is the gateway's `/admin/sso/callback` as the browser reaches it. Roles:
 * `role_claim` (default `switchyard_role`, a string or a list) names a role itself or a `role_mapping` key;
 * `role_mapping` keys also match the user's `email` and `sub`; values are a role or `{role, teams}`. `team_claim`
 * (default `switchyard_teams`) lists the team ids of a `team_admin`. A user with no role is refused. Sessions last
 * `session_ttl_seconds` (default 8 h). `cookie_secure`: `auto` (when the redirect URI is https, the connection is
 * TLS, or a `server.trust_proxy` proxy says `x-forwarded-proto: https`), `true` or `false`.
 * @see https://openid.net/specs/openid-connect-core-1_0.html
 */
export const oidcConfigSchema = z
  .strictObject({
    issuer: issuerSchema,
    client_id: z.string().min(1),
    client_secret: z.string().min(1).optional(),
    client_secret_file: z.string().min(1).optional(),
    redirect_uri: z.url({ protocol: /^https?$/ }),
    scopes: z.array(z.string().min(1)).default(['openid', 'email', 'profile']),
    role_claim: z.string().min(1).default('switchyard_role'),
    role_mapping: z.record(z.string(), mappedRoleSchema).default({}),
    team_claim: z.string().min(1).default('switchyard_teams'),
    session_ttl_seconds: z
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .default(8 * 3_600),
    cookie_secure: z.union([z.literal('auto'), z.boolean()]).default('auto'),
  })
  .refine((c) => !(c.client_secret && c.client_secret_file), {
    message: 'set client_secret or client_secret_file, not both',
  })
  .refine((c) => c.scopes.includes('openid'), { message: "scopes must include 'openid'" });

/** The parsed `admin.oidc` block. */
export type OidcConfig = z.infer<typeof oidcConfigSchema>;

/**
 * `admin`: the admin API (`/admin/*`) and console. `master_key` (at least 16 characters) authenticates
 * `Authorization: Bearer` requests as role `admin` and stays the break-glass login; `console`: serve the console at
 * `/ui` (default true); `oidc`: single sign-on (see {@link oidcConfigSchema}). Enables accounts.
 */
export const adminConfigSchema = z.strictObject({
  master_key: z.string().min(16, 'the master key must be at least 16 characters'),
  console: z.boolean().default(true),
  oidc: oidcConfigSchema.optional(),
});
