import { GatewayError } from '@switchyard/core';

/**
 * A failure -> `{code, message}` for the `error` field of a failed response and the stream's `error` event. Codes are
 * OpenAI's ResponseErrorCode values: `rate_limit_exceeded` (429), `invalid_prompt` (other 4xx), `server_error`.
 */
export function toResponseError(error: unknown): { code: string; message: string; param: string | null } {
  if (!GatewayError.isInstance(error)) return { code: 'server_error', message: 'The upstream stream failed.', param: null };
  const code = error.status === 429 ? 'rate_limit_exceeded' : error.status < 500 ? 'invalid_prompt' : 'server_error';
  return { code, message: error.message, param: error.param };
}

/**
 * A failure -> the `error` event (ResponseErrorEvent: `code`, `message`, `param`, `sequence_number`) that ends a
 * failed Responses stream, as SSE text. `sequenceNumber` is the stream's next sequence number (0 when no event was
 * sent yet, as for a call that failed after its stream was opened with keep-alive comments only).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
export function encodeResponseErrorEvent(error: unknown, sequenceNumber = 0): string {
  const failure = toResponseError(error);
  const body = { type: 'error', code: failure.code, message: failure.message, param: failure.param, sequence_number: sequenceNumber };
  return `event: error\ndata: ${JSON.stringify(body)}\n\n`;
}
