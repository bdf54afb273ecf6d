import { GatewayError } from '@switchyard/core';

/** Anthropic's error body: `{"type":"error","error":{"type","message"}}`. */
export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/**
 * Any failure -> Anthropic's error shape and status: the gateway's status is kept (400, 401, 403, 404, 413, 429, 5xx)
 * and its type named as Anthropic does (`invalid_request_error`, `authentication_error`, `permission_error`,
 * `not_found_error`, `request_too_large`, `rate_limit_error`, `api_error`, `overloaded_error`). A named parameter is
 * prefixed to the message (`max_tokens: ...`). Unknown errors become 500 `api_error` without details.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function toAnthropicError(error: unknown): {
  status: number;
  headers: Record<string, string>;
  body: AnthropicErrorBody;
} {
  if (!GatewayError.isInstance(error)) {
    return {
      status: 500,
      headers: {},
      body: { type: 'error', error: { type: 'api_error', message: 'The gateway failed to process the request.' } },
    };
  }
  const type = TYPE_BY_STATUS[error.status] ?? (error.status >= 500 ? 'api_error' : 'invalid_request_error');
  const message =
    error.param && !error.message.includes(error.param) ? `${error.param}: ${error.message}` : error.message;
  return { status: error.status, headers: error.headers, body: { type: 'error', error: { type, message } } };
}

/**
 * Any failure -> the Anthropic stream event that ends a failed stream, as SSE text:
 * `event: error\ndata: {"type":"error","error":{"type","message"}}\n\n` (see {@link toAnthropicError}).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events
 */
export function encodeAnthropicErrorEvent(error: unknown): string {
  return `event: error\ndata: ${JSON.stringify(toAnthropicError(error).body)}\n\n`;
}
