import * as client from 'openid-client';
import type { OidcConfig } from '../../config/admin-config-schema.js';
import { LOGIN_TTL_MS, type LoginState } from './oidc-login-state.js';

/** How long discovery, JWKS and token requests to the provider may take, seconds. */
const PROVIDER_TIMEOUT_S = 10;

/**
 * The gateway as an OpenID Connect relying party, through `openid-client`: discovery of the provider's metadata
 * (`<issuer>/.well-known/openid-configuration`, fetched on the first sign-in and kept; fetched again after a
 * failure), the authorization code flow with PKCE (S256), `state` and `nonce`, and ID tokens whose signature is
 * verified against the provider's JWKS (non-repudiation checks on) besides the issuer, audience, expiry and nonce.
 * `http:` issuers (loopback only, see the config) are allowed for tests and development.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 * @see https://github.com/panva/openid-client
 */
export class OidcClient {
  #configuration?: Promise<client.Configuration>;

  constructor(
    private readonly config: OidcConfig,
    /** The client secret read from `client_secret` or `client_secret_file`; undefined for a public client. */
    private readonly clientSecret: string | undefined,
  ) {}

  #discover(): Promise<client.Configuration> {
    const insecure = new URL(this.config.issuer).protocol === 'http:';
    this.#configuration ??= client
      .discovery(
        new URL(this.config.issuer),
        this.config.client_id,
        undefined,
        this.clientSecret === undefined ? client.None() : client.ClientSecretBasic(this.clientSecret),
        {
          timeout: PROVIDER_TIMEOUT_S,
          execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])],
        },
      )
      .catch((error: unknown) => {
        this.#configuration = undefined;
        throw error;
      });
    return this.#configuration;
  }

  /** The provider's authorization URL for a new sign-in, and the checks to keep until the callback. */
  async startSignIn(now = Date.now()): Promise<{ url: URL; login: LoginState }> {
    const configuration = await this.#discover();
    const login: LoginState = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      expires_at: now + LOGIN_TTL_MS,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.config.redirect_uri,
      scope: this.config.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(login.verifier),
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
    });
    return { url, login };
  }

  /**
   * Completes a sign-in: checks the callback's `state`, redeems its `code` with the PKCE verifier, and verifies the ID
   * token (signature by the provider's JWKS, issuer, audience, expiry, nonce). `search` is the callback's query string.
   * Resolves with the ID token's claims (with UserInfo's beneath them when the ID token lacks `role_claim`); rejects with openid-client's error (its `code` says which check failed).
   */
  async finishSignIn(search: string, login: LoginState): Promise<Record<string, unknown>> {
    const configuration = await this.#discover();
    const current = new URL(this.config.redirect_uri);
    current.search = search;
    const tokens = await client.authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: login.verifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('The provider sent no ID token.');
    if (claims[this.config.role_claim] !== undefined || !configuration.serverMetadata().userinfo_endpoint)
      return { ...claims };
    // Providers that keep profile claims out of the ID token (OpenID Connect Core 5.4) answer them at UserInfo.
    const userinfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    return { ...userinfo, ...claims };
  }
}
