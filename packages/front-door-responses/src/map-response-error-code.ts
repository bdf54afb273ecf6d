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
