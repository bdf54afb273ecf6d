import { toAnthropicError } from '@switchyard/front-door-messages';
import type { ErrorRequestHandler } from 'express';
import { locals } from '../request-locals.js';
import { toGatewayError } from './handle-errors.js';

/**
 * The error handler of the Anthropic Messages routes: answers with Anthropic's status and body
 * `{"type":"error","error":{"type","message"}}` (see `toAnthropicError`), with `retry-after` and the other headers
 * of the error. If the response already started (a stream), the connection is closed instead.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function handleAnthropicErrors(): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const gatewayError = toGatewayError(error);
    if (gatewayError.status >= 500) locals(res).error = error;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const { status, headers, body } = toAnthropicError(gatewayError);
    res.status(status).set(headers).json(body);
  };
}
