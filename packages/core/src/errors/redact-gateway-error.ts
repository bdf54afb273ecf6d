import { redactSecrets } from './redact-secrets.js';
import { GatewayError } from './gateway-error.js';
import { upstreamErrorCode } from './gateway-error-codes.js';

/**
 * The same error with `secrets` (and pieces of them, see `redactSecrets`) removed from every string field a client
 * sees: `message`, `type`, `param`, `code`, header values and the kept upstream answer's body. Returns `error` itself when nothing had to change.
 * The gateway's last line of defence before an error body or a mid-stream error event is written.
 */
export function redactGatewayError(error: GatewayError, secrets: readonly (string | undefined)[]): GatewayError {
  if (secrets.length === 0) return error;
  const clean = (value: string | null) => (value === null ? null : redactSecrets(value, secrets));
  const message = redactSecrets(error.message, secrets);
  const type = redactSecrets(error.type, secrets);
  const param = clean(error.param);
  const redactedCode = clean(error.code);
  // A code that carried a secret was the upstream's own (the gateway's codes are constants).
  const code = redactedCode === error.code ? error.code : upstreamErrorCode(redactedCode);
  const headers = Object.fromEntries(Object.entries(error.headers).map(([k, v]) => [k, redactSecrets(v, secrets)]));
  const answer = error.upstreamAnswer && {
    ...error.upstreamAnswer,
    body: redactSecrets(error.upstreamAnswer.body, secrets),
  };
  const same =
    message === error.message &&
    type === error.type &&
    param === error.param &&
    code === error.code &&
    answer?.body === error.upstreamAnswer?.body &&
    Object.entries(headers).every(([k, v]) => v === error.headers[k]);
  if (same) return error;
  return new GatewayError({
    status: error.status,
    message,
    type,
    param,
    code,
    headers,
    cause: error,
    retry: error.retry,
    upstreamAnswer: answer,
  });
}
