import { GatewayError, type GatewayErrorCode, createUpstreamErrorMapper, redactSecrets } from '@switchyard/core';
import { type AnthropicError, anthropicErrorBodySchema } from './anthropic-error-schema.js';

/** Per Anthropic error type: the HTTP status it comes with, and the OpenAI `type` and `code` it becomes. */
const ERROR_TYPES: Record<string, { status: number; type: string; code: GatewayErrorCode | null }> = {
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

/** The OpenAI type and code for the body's Anthropic error type, or undefined for an unknown type. */
const typeOf = (body: { error?: AnthropicError }) => ERROR_TYPES[body.error?.type ?? ''];

/**
 * Anthropic's error answer (`{"type":"error","error":{"type","message"},"request_id"}`, read through
 * `anthropicErrorBodySchema`) -> OpenAI-shaped GatewayError: `(provider, status, bodyText, headers, secrets)`.
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
 * Built by core's `createUpstreamErrorMapper`; never throws.
 * @see https://docs.anthropic.com/en/api/errors
 */
export const mapAnthropicError = createUpstreamErrorMapper({
  schema: anthropicErrorBodySchema,
  toMessage: (body) => body.error?.message,
  toType: (body) => typeOf(body)?.type,
  toCode: (body) => typeOf(body)?.code,
  statusMap: { 529: 503 },
});

/**
 * The GatewayError for an `error` event inside a stream (`{"type":"error","error":{type, message}}`, sent after the
 * HTTP 200): mapped as {@link mapAnthropicError} with the status the error type has over HTTP (`overloaded_error`
 * -> 503, `rate_limit_error` -> 429, `api_error` -> 500...; an unknown type -> 502). `secrets` are redacted.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events
 */
export function mapAnthropicStreamError(
  provider: string,
  error: AnthropicError,
  secrets: readonly (string | undefined)[] = [],
): GatewayError {
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
  return new GatewayError({
    status: error.status,
    type: error.type,
    code: error.code,
    message: error.message,
    headers: error.headers,
    upstreamAnswer,
  });
}
