import { GatewayError, redactSecrets, parseJsonOrUndefined } from '@switchyard/core';

const TYPES: Record<string, { type: string; code: string | null }> = {
  INVALID_ARGUMENT: { type: 'invalid_request_error', code: null },
  FAILED_PRECONDITION: { type: 'invalid_request_error', code: 'failed_precondition' },
  UNAUTHENTICATED: { type: 'invalid_request_error', code: 'invalid_api_key' },
  PERMISSION_DENIED: { type: 'invalid_request_error', code: 'permission_denied' },
  NOT_FOUND: { type: 'invalid_request_error', code: 'not_found' },
  RESOURCE_EXHAUSTED: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  INTERNAL: { type: 'server_error', code: null },
  UNAVAILABLE: { type: 'server_error', code: 'unavailable' },
  DEADLINE_EXCEEDED: { type: 'server_error', code: 'upstream_timeout' },
};

interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: { '@type'?: string; reason?: string; retryDelay?: string }[];
}

/**
 * Google's error (`{"error":{code, message, status, details}}`) -> OpenAI-shaped GatewayError with the same HTTP
 * status and message (the key redacted; `details` are not passed on, they can echo the key). An invalid API key
 * (`API_KEY_INVALID`, sent as 400) becomes 401. `RetryInfo.retryDelay` becomes `retry-after-ms` for the gateway's
 * retries and the client.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export function mapGeminiError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  // Redacted as a whole first: no field can carry the key (or a piece of it) on.
  const error = (parseJsonOrUndefined(redactSecrets(bodyText, secrets)) as { error?: GoogleError } | null | undefined)?.error;
  const invalidKey = error?.details?.some((d) => d.reason === 'API_KEY_INVALID') ?? false;
  const mapped = invalidKey ? TYPES.UNAUTHENTICATED! : (TYPES[error?.status ?? ''] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null });
  const out: Record<string, string> = {};
  const retryDelay = error?.details?.find((d) => d['@type']?.endsWith('RetryInfo'))?.retryDelay;
  const seconds = retryDelay ? Number.parseFloat(retryDelay) : Number.NaN;
  if (Number.isFinite(seconds)) out['retry-after-ms'] = String(Math.round(seconds * 1000));
  else if (typeof headers['retry-after'] === 'string') out['retry-after'] = headers['retry-after'];
  return new GatewayError({
    status: invalidKey ? 401 : status,
    type: mapped.type,
    code: mapped.code,
    message: typeof error?.message === 'string' ? error.message : `The upstream provider '${provider}' answered HTTP ${status}.`,
    headers: out,
  });
}
