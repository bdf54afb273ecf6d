import { readFileSync } from 'node:fs';
import { type AuthClient, GoogleAuth, JWT } from 'google-auth-library';

/** The OAuth2 scope Vertex AI calls need. */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** The token endpoint google-auth-library posts JWTs to; a key file's `token_uri` replaces it. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** Where a Vertex adapter gets its `Authorization: Bearer` access tokens. */
export interface VertexTokenSource {
  /** A valid access token: cached, fetched again shortly (5 minutes) before it expires. Throws when none can be had. */
  getToken(): Promise<string>;
  /** Forgets the cached token so that the next {@link getToken} fetches a new one (after a 401). */
  invalidate(): void;
}

/** The fields of a Google service-account key file this adapter reads. */
export interface ServiceAccountKey {
  type: 'service_account';
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/**
 * Reads the `credentials` setting: the key file's JSON itself (text starting with `{`) or a path to it. Throws an Error
 * naming the path when the file cannot be read, or when the text is not JSON.
 */
export function readCredentials(credentials: string): Record<string, unknown> {
  const text = credentials.trim().startsWith('{') ? credentials : readFileSync(credentials, 'utf8');
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(
      credentials.trim().startsWith('{')
        ? 'credentials: the JSON is not valid.'
        : `credentials: '${credentials}' is not a JSON key file.`,
    );
  }
}

function fromClient(getClient: () => Promise<AuthClient>): VertexTokenSource {
  let client: Promise<AuthClient> | undefined;
  return {
    async getToken() {
      client ??= getClient();
      const { token } = await (await client).getAccessToken();
      if (!token) throw new Error('Google returned no access token.');
      return token;
    },
    invalidate() {
      void client?.then((c) => {
        // An expiry in the past makes google-auth-library fetch (not reuse) a token on the next call.
        c.credentials = { ...c.credentials, expiry_date: 1 };
      });
    },
  };
}

/**
 * OAuth2 access tokens for Vertex AI with `google-auth-library`:
 * - a service-account key (`type: "service_account"`): a JWT signed with its `private_key` is exchanged for an access
 *   token (scope `cloud-platform`) at the key file's `token_uri` (google-auth-library posts to Google's endpoint; the
 *   request is redirected to `token_uri` when it differs, e.g. a private or test endpoint);
 * - any other key file (authorized user, external account): google-auth-library's own client for it;
 * - no key: Application Default Credentials: the key file named by `GOOGLE_APPLICATION_CREDENTIALS` in `env` (read and
 *   used as above), else google-auth-library's other sources (gcloud's user credentials, the metadata server on Google
 *   Cloud). Throws an Error when that variable names a file that cannot be read.
 * Tokens are cached by the library and fetched again when they are within 5 minutes of expiry.
 * @see https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 */
export function createVertexTokenSource(
  key?: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): VertexTokenSource {
  if (!key) {
    // ADC's first source is the key file named by GOOGLE_APPLICATION_CREDENTIALS: read it here so that its token_uri holds.
    const file = env.GOOGLE_APPLICATION_CREDENTIALS;
    if (file) return createVertexTokenSource(readCredentials(file), env);
    return fromClient(() => new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE] }).getClient());
  }
  if (key.type !== 'service_account')
    return fromClient(async () => new GoogleAuth({ credentials: key, scopes: [CLOUD_PLATFORM_SCOPE] }).getClient());
  const account = key as unknown as ServiceAccountKey;
  if (!account.client_email || !account.private_key)
    throw new Error('credentials: a service-account key needs client_email and private_key.');
  const jwt = new JWT({
    email: account.client_email,
    key: account.private_key,
    keyId: account.private_key_id,
    scopes: [CLOUD_PLATFORM_SCOPE],
  });
  const tokenURI = account.token_uri;
  if (tokenURI && tokenURI !== GOOGLE_TOKEN_URL) {
    const target = new URL(tokenURI);
    jwt.transporter.interceptors.request.add({
      resolved: async (config) => {
        if (String(config.url) === GOOGLE_TOKEN_URL) config.url = target;
        return config;
      },
    });
  }
  return fromClient(async () => jwt);
}
