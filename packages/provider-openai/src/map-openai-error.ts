import { GatewayError, redactSecrets, parseJsonOrUndefined } from '@switchyard/core';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/**
 * Maps an OpenAI(-compatible) error answer to the client's error: the status is kept (529 "overloaded" becomes 503),
 * `{"error":{message,type,param,code}}` is copied when present (some compatible servers send `{"error":"text"}` or
 * `{"message":...}`), `retry-after` / `retry-after-ms` are kept for clients and retries, and `secrets` (the upstream
 * key, and pieces of it) are redacted from the whole body before any field is read. A body without a message (HTML from a proxy, empty) gives
 * `The upstream provider '<provider>' answered HTTP <status>` plus the first 200 characters of the body.
 * `status` is the upstream HTTP status (>= 400; anything outside 400..599 becomes 502), `headers` the upstream response
 * headers (lower-case names). Returns the error; never throws.
 * @see https://platform.openai.com/docs/guides/error-codes/api-errors
 */
export function mapOpenAIError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  // Redacted as a whole before anything is read from it: every field, and any cut of it, is then free of the key.
  bodyText = redactSecrets(bodyText, secrets);
  const body = parseJsonOrUndefined(bodyText);
  const raw = (body as { error?: unknown } | undefined)?.error ?? body;
  const error = (typeof raw === 'object' && raw !== null ? raw : { message: typeof raw === 'string' ? raw : undefined }) as Record<string, unknown>;
  const message =
    typeof error.message === 'string' && error.message
      ? error.message
      : `The upstream provider '${provider}' answered HTTP ${status}${bodyText && !body ? `: ${bodyText.slice(0, 200)}` : '.'}`;
  const kept: Record<string, string> = {};
  for (const name of ['retry-after', 'retry-after-ms']) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  const finalStatus = status === 529 ? 503 : status >= 400 && status <= 599 ? status : 502;
  return new GatewayError({
    status: finalStatus,
    message,
    type: typeof error.type === 'string' ? error.type : (TYPE_BY_STATUS[finalStatus] ?? (finalStatus >= 500 ? 'server_error' : 'invalid_request_error')),
    param: typeof error.param === 'string' ? error.param : null,
    code: typeof error.code === 'string' || typeof error.code === 'number' ? String(error.code) : null,
    headers: kept,
  });
}
