import { redactGatewayError } from '@switchyard/core';
import { toAnthropicError } from '@switchyard/front-door-messages';
import type { ErrorRequestHandler, Response } from 'express';
import { locals } from '../request-locals.js';
import { toGatewayError } from './handle-errors.js';

/**
 * The error handler of the Anthropic Messages routes. An upstream error of the Anthropic-family pass-through (the
 * error's `upstreamAnswer`) goes back as it came: its status (529 included), body and `request-id`, `retry-after`,
 * `x-should-retry`, as Anthropic's gateway protocol asks (Claude Code's recovery matches on Anthropic's wording). Any
 * other failure (auth, limits, validation, translated routes) answers with Anthropic's status and body
 * `{"type":"error","error":{"type","message"}}` (see `toAnthropicError`), with `retry-after` and the other headers of
 * the error. `secrets` are redacted from both. If the response already started (a stream), the connection is closed.
 * @see https://docs.anthropic.com/en/api/errors
 * @see https://code.claude.com/docs/en/llm-gateway-protocol
 */
export function handleAnthropicErrors(secrets: readonly string[] = []): ErrorRequestHandler {
  return (error, _req, res, _next) => answerAnthropicError(res, error, secrets);
}

/** What {@link handleAnthropicErrors} does with an error, for a stream handed over by its route (`handOverStream`). */
export function answerAnthropicError(res: Response, error: unknown, secrets: readonly string[] = []): void {
  const gatewayError = redactGatewayError(toGatewayError(error), secrets);
  if (gatewayError.status >= 500) locals(res).error = error;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const answer = gatewayError.upstreamAnswer;
  if (answer) {
    res.status(answer.status).set(answer.headers).send(Buffer.from(answer.body, 'utf8'));
    return;
  }
  const { status, headers, body } = toAnthropicError(gatewayError);
  res.status(status).set(headers).json(body);
}
