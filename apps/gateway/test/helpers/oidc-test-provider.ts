import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/** A user of the test provider: the claims its ID token carries besides `sub`. */
export interface TestUser {
  email: string;
  switchyard_role?: string | string[];
  switchyard_teams?: string[];
}

/** The running provider: its issuer, the gateway's client, and a hook to replace the next ID token it issues. */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's signing key (RS256, kid `test-key`), to sign tokens the provider itself did not issue. */
  privateKey: CryptoKey;
  /** Replaces the `id_token` of the next token response with what `replace` makes of it (forged, expired...). */
  replaceNextIdToken(replace: (idToken: string) => Promise<string>): void;
  /** Keeps the browser at the provider after the next sign-in, resolving with the callback URL it was sent to. */
  holdNextCallback(): Promise<URL>;
  close(): Promise<void>;
}

/** Signs `claims` as an RS256 ID token under `key` with kid `test-key` (the provider's kid). */
export function signIdToken(claims: Record<string, unknown>, key: CryptoKey): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'JWT' }).sign(key);
}

/** The claims of an ID token (not verified). */
export const idTokenClaims = (idToken: string) => decodeJwt(idToken) as Record<string, unknown>;

/**
 * Starts the certified `oidc-provider` on a loopback port with one confidential client for the gateway
 * (`client_secret_basic`, PKCE required, `redirectUri`), the given users (any password signs in through the
 * provider's own login and consent pages), scopes `openid email switchyard`, and ID tokens carrying the users'
 * claims (`conformIdTokenClaims: false`).
 * @see https://github.com/panva/node-oidc-provider
 */
export async function startOidcProvider(
  redirectUri: string,
  users: Record<string, TestUser>,
): Promise<TestOidcProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const clientId = 'switchyard-console';
  const clientSecret = 'test-client-secret-0123456789abcdef';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    conformIdTokenClaims: false,
    scopes: ['openid', 'email', 'switchyard'],
    claims: { openid: ['sub'], email: ['email'], switchyard: ['switchyard_role', 'switchyard_teams'] },
    cookies: { keys: ['oidc-test-provider-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => {
      const user = users[id];
      return user ? { accountId: id, claims: () => ({ sub: id, ...user }) } : undefined;
    },
  });
  let replacement: ((idToken: string) => Promise<string>) | undefined;
  let hold: ((callback: URL) => void) | undefined;
  provider.use(async (ctx, next) => {
    await next();
    const location = String(ctx.response.get('location') ?? '');
    if (hold && location.startsWith(redirectUri)) {
      hold(new URL(location));
      hold = undefined;
      ctx.remove('location');
      ctx.status = 200;
      ctx.type = 'text/plain';
      ctx.body = 'The callback is held by the test.';
    }
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && replacement && body?.id_token) {
      const replace = replacement;
      replacement = undefined;
      body.id_token = await replace(body.id_token);
    }
  });
  handle = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    privateKey,
    replaceNextIdToken: (replace) => {
      replacement = replace;
    },
    holdNextCallback: () =>
      new Promise<URL>((resolve) => {
        hold = resolve;
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The `admin:` section of a gateway config (YAML) with the master key `masterKey` and single sign-on through
 * `provider` (redirect to `redirectUri`, scopes `openid email switchyard`); `oidcExtra` is one more line under `oidc:`
 * (e.g. a `role_mapping`).
 */
export function adminOidcYaml(
  provider: TestOidcProvider,
  masterKey: string,
  redirectUri: string,
  oidcExtra?: string,
): string {
  return [
    'admin:',
    `  master_key: "${masterKey}"`,
    '  oidc:',
    `    issuer: ${provider.issuer}`,
    `    client_id: ${provider.clientId}`,
    `    client_secret: ${provider.clientSecret}`,
    `    redirect_uri: ${redirectUri}`,
    '    scopes: [openid, email, switchyard]',
    ...(oidcExtra ? [`    ${oidcExtra}`] : []),
  ].join('\n');
}
