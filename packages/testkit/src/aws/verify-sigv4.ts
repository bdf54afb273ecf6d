import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { RecordedRequest } from '../mock-upstream/mock-reply.js';

/** The AWS credentials a mock upstream accepts. */
export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Why a request's SigV4 signature was refused, or `undefined` when it is valid. */
export type SigV4Verdict = { ok: true } | { ok: false; reason: string };

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

/**
 * Checks a request's AWS Signature Version 4 the way AWS does: parses `authorization`
 * (`AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/<service>/aws4_request, SignedHeaders=..., Signature=...`),
 * checks the key id and session token, then recomputes the signature from what was received (method, path, query,
 * the signed headers, the body's SHA-256, `x-amz-date`) with the secret the mock knows, using
 * `@smithy/signature-v4`, and compares; `x-amz-content-sha256`, when sent, must be the SHA-256 of the body received. A wrong secret, a changed body or header, or a different region/service fails.
 * @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
export async function verifySigV4(request: RecordedRequest, credentials: SigV4Credentials): Promise<SigV4Verdict> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? AUTH.exec(header) : null;
  if (!match) return { ok: false, reason: 'no AWS4-HMAC-SHA256 authorization header' };
  const [, keyId, , region, service, signedHeaderList, signature] = match as unknown as string[];
  if (keyId !== credentials.accessKeyId) return { ok: false, reason: `unknown access key id ${keyId}` };
  if (credentials.sessionToken !== undefined && request.headers['x-amz-security-token'] !== credentials.sessionToken) {
    return { ok: false, reason: 'missing or wrong x-amz-security-token' };
  }
  const amzDate = request.headers['x-amz-date'];
  if (typeof amzDate !== 'string') return { ok: false, reason: 'no x-amz-date header' };
  const signingDate = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const headers: Record<string, string> = {};
  for (const name of signedHeaderList!.split(';')) {
    const value = request.headers[name];
    if (value === undefined) return { ok: false, reason: `signed header ${name} is missing` };
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // The signer trusts an `x-amz-content-sha256` header as the payload hash: check it against the bytes received.
  const contentHash = request.headers['x-amz-content-sha256'];
  if (typeof contentHash === 'string' && contentHash !== createHash('sha256').update(request.body).digest('hex')) {
    return { ok: false, reason: 'x-amz-content-sha256 does not match the body' };
  }
  const signer = new SignatureV4({ service: service!, region: region!, credentials, sha256: Sha256 });
  const expected = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: 'mock',
      path: request.path,
      query: request.query,
      headers,
      body: request.body.length > 0 ? request.body : undefined,
    },
    { signingDate, signingRegion: region, signingService: service },
  );
  const recomputed = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization))?.[1];
  return recomputed === signature ? { ok: true } : { ok: false, reason: 'the signature does not match' };
}
