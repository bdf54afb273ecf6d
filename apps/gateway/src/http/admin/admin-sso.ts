import { readFile } from 'node:fs/promises';
import type { Accounts } from '@switchyard/accounts';
import type { Request } from 'express';
import type { OidcConfig } from '../../config/admin-config-schema.js';
import { trustedProxies } from '../client-address.js';
import { cookieSecure } from './admin-session-cookie.js';
import { AdminSessions } from './admin-sessions.js';
import { OidcClient } from './oidc-client.js';
import { LoginStateSeal } from './oidc-login-state.js';

/** Console sign-in: the OpenID Connect client and config, the sealed sign-in state, the sessions, and cookie security. */
export interface AdminSso {
  config: OidcConfig;
  oidc: OidcClient;
  seal: LoginStateSeal;
  sessions: AdminSessions;
  /** Whether this request's cookies get `Secure` (see `cookieSecure`). */
  secure(req: Request): boolean;
}

/** Options of {@link createAdminSso}. */
export interface AdminSsoOptions {
  /** `admin.oidc`. */
  config: OidcConfig;
  /** The client secret (from `client_secret` or the file of `client_secret_file`); undefined for a public client. */
  clientSecret: string | undefined;
  /** `admin.master_key`: the sealed sign-in state's key is derived from it. */
  masterKey: string;
  /** `server.trust_proxy`: proxies whose `x-forwarded-proto` is believed. */
  trustProxy: readonly string[];
}

/** Builds the console's single sign-on on `accounts`' store (sessions shared by replicas on a shared store). */
export function createAdminSso(accounts: Accounts, options: AdminSsoOptions): AdminSso {
  const isTrusted = trustedProxies(options.trustProxy);
  const { config } = options;
  return {
    config,
    oidc: new OidcClient(config, options.clientSecret),
    seal: new LoginStateSeal(options.masterKey),
    sessions: new AdminSessions(accounts.adminSessions, config.session_ttl_seconds * 1000),
    secure: (req) => cookieSecure(req, config.cookie_secure, config.redirect_uri, isTrusted),
  };
}

/**
 * The console's single sign-on of a config with `admin.oidc` (undefined without it), reading `client_secret_file`
 * (trimmed) when set. Resolves with the client secret too, for redaction. Rejects when the file cannot be read.
 */
export async function openAdminSso(
  accounts: Accounts,
  config: { admin?: { master_key: string; oidc?: OidcConfig }; server: { trust_proxy: readonly string[] } },
): Promise<{ sso?: AdminSso; clientSecret?: string }> {
  const oidc = config.admin?.oidc;
  if (!config.admin || !oidc) return {};
  const clientSecret = oidc.client_secret_file
    ? (await readFile(oidc.client_secret_file, 'utf8')).trim()
    : oidc.client_secret;
  const sso = createAdminSso(accounts, {
    config: oidc,
    clientSecret,
    masterKey: config.admin.master_key,
    trustProxy: config.server.trust_proxy,
  });
  return { sso, clientSecret };
}
