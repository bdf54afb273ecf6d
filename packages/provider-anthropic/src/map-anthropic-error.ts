import { GatewayError, redactSecrets, parseJsonOrUndefined } from '@switchyard/core';
import type { AnthropicError } from './anthropic-response-schemas.js';

/** Per Anthropic error type: the HTTP status it comes with, and the OpenAI `type` and `code` it becomes. */
const ERROR_TYPES: Record<string, { status: number; type: string; code: string | null }> = {
  invalid_request_error: { status: 400, type: 'invalid_request_error', code: null },
  authentication_error: { status: 401, type: 'invalid_request_error', code: 'invalid_api_key' },
  billing_error: { status: 402, type: 'insufficient_quota', code: 'insufficient_quota' },
  permission_error: { status: 403, type: 'invalid_request_error', code: 'permission_denied' },
  not_found_error: { status: 404, type: 'invalid_request_error', code: 'not_found' },
  request_too_large: { status: 413, type: 'invalid_request_error', code: 'request_too_large' },
  rate_limit_error: { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  api_error: { status: 500, type: 'server_error', code: null },
  gateway_timeout_error: { status: 504, type: 'server_error', code: 'upstream_timeout' },
  overloaded_error: { status: 503, type: 'server_error', code: 'overloaded' },
};

/** Response headers passed on to the client and the gateway's retry logic. */
const KEPT_HEADERS = ['retry-after', 'retry-after-ms'];

/**
 * Anthropic's error answer (`{"type":"error","error":{"type","message"},"request_id"}`) -> OpenAI-shaped GatewayError:
 * - status: the upstream's (400, 401, 403, 404, 413, 429, 500...), except 529 `overloaded_error` -> 503, and
 *   anything outside 400..599 -> 502;
 * - `type`/`code` from the Anthropic type: `invalid_request_error` -> `invalid_request_error`; `authentication_error`
 *   -> `invalid_request_error` + `invalid_api_key`; `permission_error` -> `permission_denied`; `not_found_error` ->
 *   `not_found`; `request_too_large`; `rate_limit_error` -> `rate_limit_error` + `rate_limit_exceeded`;
 *   `billing_error` -> `insufficient_quota`; `api_error` -> `server_error`; `overloaded_error` -> `server_error` +
 *   `overloaded`; unknown types -> by status (`server_error` for 5xx, else `invalid_request_error`);
 * - `message`: Anthropic's, with `secrets` (the API key) redacted; a body without one (a proxy's HTML page) gives
 *   `The upstream provider '<provider>' answered HTTP <status>` plus its first 200 characters;
 * - `retry-after` (seconds) and `retry-after-ms` are kept.
 * `headers` are the upstream response headers (lower-case names). Returns the error; never throws.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function mapAnthropicError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  // Redacted as a whole before anything is read from it: every field, and any cut of it, is then free of the key.
  bodyText = redactSecrets(bodyText, secrets);
  const body = parseJsonOrUndefined(bodyText) as { error?: unknown } | null | undefined;
  const error = typeof body?.error === 'object' && body.error !== null ? (body.error as AnthropicError) : undefined;
  const finalStatus = status === 529 ? 503 : status >= 400 && status <= 599 ? status : 502;
  const mapped = ERROR_TYPES[typeof error?.type === 'string' ? error.type : ''] ?? {
    type: finalStatus >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
  };
  const message =
    typeof error?.message === 'string' && error.message !== ''
      ? error.message
      : `The upstream provider '${provider}' answered HTTP ${status}${bodyText && !error ? `: ${bodyText.slice(0, 200)}` : '.'}`;
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  return new GatewayError({ status: finalStatus, type: mapped.type, code: mapped.code, message, headers: kept });
}

/**
 * The GatewayError for an `error` event inside a stream (`{"type":"error","error":{type, message}}`, sent after the
 * HTTP 200): mapped as {@link mapAnthropicError} with the status the error type has over HTTP (`overloaded_error`
 * -> 503, `rate_limit_error` -> 429, `api_error` -> 500...; an unknown type -> 502). `secrets` are redacted.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events
 */
export function mapAnthropicStreamError(provider: string, error: AnthropicError, secrets: readonly (string | undefined)[] = []): GatewayError {
  const status = ERROR_TYPES[error.type ?? '']?.status ?? 502;
  return mapAnthropicError(provider, status, JSON.stringify({ type: 'error', error }), {}, secrets);
}

/** The upstream response headers a client of the pass-through acts on, kept with the answer. */
const ANSWER_HEADERS = ['content-type', 'request-id', 'retry-after', 'retry-after-ms', 'x-should-retry'];

/**
 * As {@link mapAnthropicError}, plus the upstream's answer kept as it came (`upstreamAnswer`: its own status, 529
 * included, the body text with `secrets` redacted, and `content-type`, `request-id`, `retry-after`, `retry-after-ms`,
 * `x-should-retry`), so that the `/v1/messages` pass-through returns it byte for byte: Claude Code's recovery matches
 * on Anthropic's own wording.
 * @see https://code.claude.com/docs/en/llm-gateway-protocol
 */
export function mapAnthropicPassThroughError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  const error = mapAnthropicError(provider, status, bodyText, headers, secrets);
  const kept: Record<string, string> = {};
  for (const name of ANSWER_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  const upstreamAnswer = { status, headers: kept, body: redactSecrets(bodyText, secrets) };
  return new GatewayError({ status: error.status, type: error.type, code: error.code, message: error.message, headers: error.headers, upstreamAnswer });
}
