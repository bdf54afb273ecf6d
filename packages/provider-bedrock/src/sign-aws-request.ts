import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

/** AWS credentials: an access key pair, plus the session token of temporary credentials. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Signs one HTTP request; resolves with the headers to send (the given ones plus `authorization`, `x-amz-date`...). */
export type AwsRequestSigner = (request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}) => Promise<Record<string, string>>;

/**
 * A SigV4 signer for one AWS service and region (`@smithy/signature-v4` with `@aws-crypto/sha256-js`): signs the
 * method, path (URI-encoded twice, as every service but S3 expects), query, the `host` header and the other given
 * headers, and the SHA-256 of the body; adds `x-amz-date`, `authorization` and, for temporary credentials,
 * `x-amz-security-token`. The returned headers leave out `host` (the HTTP client sends the same value itself).
 * @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
export function createAwsRequestSigner(options: {
  service: string;
  region: string;
  credentials: AwsCredentials;
}): AwsRequestSigner {
  const signer = new SignatureV4({
    service: options.service,
    region: options.region,
    credentials: options.credentials,
    sha256: Sha256,
  });
  return async (request) => {
    const url = new URL(request.url);
    const signed = await signer.sign({
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...request.headers, host: url.host },
      body: request.body,
    });
    const { host: _host, ...headers } = signed.headers as Record<string, string>;
    return headers;
  };
}
