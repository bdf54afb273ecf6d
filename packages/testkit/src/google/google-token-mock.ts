import { createVerify, generateKeyPairSync } from 'node:crypto';
import type { MockReply, MockRoute, RecordedRequest } from '../mock-upstream/mock-reply.js';

/** A Google service-account key file made for a test (a fresh 2048-bit RSA key), and its public key. */
export interface TestServiceAccount {
  /** The key file's JSON, with `token_uri` pointing at the mock. */
  key: {
    type: 'service_account';
    project_id: string;
    private_key_id: string;
    private_key: string;
    client_email: string;
    client_id: string;
    token_uri: string;
  };
  /** PEM of the public key, for checking the JWTs signed with `private_key`. */
  publicKey: string;
}

/**
 * Makes a service-account key file whose `token_uri` is `tokenURI` (the mock's token route), with an RSA key pair
 * generated now (never a key from anywhere else).
 * @see https://cloud.google.com/iam/docs/keys-create-delete
 */
export function createTestServiceAccount(
  tokenURI: string,
  email = 'switchyard-test@my-project.iam.gserviceaccount.com',
): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    key: {
      type: 'service_account',
      project_id: 'my-project',
      private_key_id: 'test-key-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: email,
      client_id: '1234567890',
      token_uri: tokenURI,
    },
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The mock token endpoint of {@link googleTokenMock}: its route, the tokens it issued, and a guard for API routes. */
export interface GoogleTokenMock {
  /** The route to mount at the key file's `token_uri` path (`POST`). */
  route: MockRoute;
  /** Every access token issued so far, in order. */
  readonly issued: string[];
  /** Lifetime of the tokens issued from now on, seconds (default 3600). */
  expiresIn: number;
  /** Makes every token issued so far invalid (as if revoked or expired early). */
  revokeAll(): void;
  /** Wraps an API route: a request without `Authorization: Bearer <a valid issued token>` gets Google's 401. */
  requireToken(route: (request: RecordedRequest, call: number) => MockReply | Promise<MockReply>): MockRoute;
}

function base64url(text: string): Buffer {
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

const unauthenticated: MockReply = {
  status: 401,
  json: {
    error: {
      code: 401,
      message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.',
      status: 'UNAUTHENTICATED',
    },
  },
};

/**
 * Google's OAuth2 token endpoint for the JWT-bearer grant, as a mock route: it checks the form
 * (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, `assertion=<JWT>`), the JWT's RS256 signature against the
 * test key's public key, its `iss` (the key's email), `scope` and expiry, then answers
 * `{access_token, expires_in, token_type: "Bearer"}` with a new token each time. A bad assertion gets Google's
 * `400 {"error":"invalid_grant"}`.
 * @see https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 */
export function googleTokenMock(account: TestServiceAccount): GoogleTokenMock {
  const issued: string[] = [];
  const valid = new Set<string>();
  const mock: GoogleTokenMock = {
    issued,
    expiresIn: 3600,
    route: (request) => {
      const form = new URLSearchParams(request.bodyText);
      const assertion = form.get('assertion') ?? '';
      const [header, payload, signature] = assertion.split('.');
      const verifier = createVerify('RSA-SHA256').update(`${header}.${payload}`);
      const claims = payload
        ? (JSON.parse(base64url(payload).toString('utf8')) as { iss?: string; scope?: string; exp?: number })
        : {};
      const ok =
        form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
        signature !== undefined &&
        verifier.verify(account.publicKey, base64url(signature)) &&
        claims.iss === account.key.client_email &&
        (claims.scope ?? '').includes('https://www.googleapis.com/auth/cloud-platform') &&
        (claims.exp ?? 0) * 1000 > Date.now();
      if (!ok) return { status: 400, json: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
      const token = `ya29.test-token-${issued.length + 1}`;
      issued.push(token);
      valid.add(token);
      return { json: { access_token: token, expires_in: mock.expiresIn, token_type: 'Bearer' } };
    },
    revokeAll() {
      valid.clear();
    },
    requireToken(route) {
      return (request, call) => {
        const auth = request.headers.authorization;
        const token = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
        if (!token || !valid.has(token)) return unauthenticated;
        return route(request, call);
      };
    },
  };
  return mock;
}
