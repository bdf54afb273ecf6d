import { GatewayError, redactSecrets } from '@switchyard/core';

const OPENAI_TYPE: Record<string, { type: string; code: string | null }> = {
  invalid_request_error: { type: 'invalid_request_error', code: null },
  authentication_error: { type: 'invalid_request_error', code: 'invalid_api_key' },
  permission_error: { type: 'invalid_request_error', code: 'permission_denied' },
  not_found_error: { type: 'invalid_request_error', code: 'not_found' },
  request_too_large: { type: 'invalid_request_error', code: 'request_too_large' },
  rate_limit_error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  billing_error: { type: 'insufficient_quota', code: 'insufficient_quota' },
  api_error: { type: 'server_error', code: null },
  overloaded_error: { type: 'server_error', code: 'overloaded' },
  gateway_timeout_error: { type: 'server_error', code: 'upstream_timeout' },
};

/**
 * Anthropic error (`{"type":"error","error":{"type","message"}}`) -> OpenAI-shaped GatewayError: the status is kept
 * except 529 (`overloaded_error`) -> 503; the message is kept (the key redacted); the type maps to OpenAI's
 * (`rate_limit_error` -> 429 `rate_limit_exceeded`, `authentication_error` -> `invalid_api_key`...); `retry-after` is
 * kept for clients and the gateway's retries.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function mapAnthropicError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  let error: { type?: string; message?: string } | undefined;
  try {
    error = (JSON.parse(bodyText) as { error?: { type?: string; message?: string } }).error;
  } catch {
    error = undefined;
  }
  const mapped = OPENAI_TYPE[error?.type ?? ''] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
  const retryAfter = headers['retry-after'];
  return new GatewayError({
    status: status === 529 ? 503 : status,
    type: mapped.type,
    code: mapped.code,
    message: redactSecrets(error?.message ?? `The upstream provider '${provider}' answered HTTP ${status}.`, secrets),
    headers: typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {},
  });
}

/** The GatewayError for an `error` event inside a stream (`{"type":"error","error":{...}}`): status from the type. */
export function mapAnthropicStreamError(provider: string, error: { type?: string; message?: string }): GatewayError {
  const status = error.type === 'overloaded_error' ? 503 : error.type === 'rate_limit_error' ? 429 : error.type === 'invalid_request_error' ? 400 : 502;
  return mapAnthropicError(provider, status, JSON.stringify({ error }), {}, []);
}
