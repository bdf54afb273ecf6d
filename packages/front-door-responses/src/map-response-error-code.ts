import { GatewayError } from '@switchyard/core';
import type { ResponseObject } from './response-object.js';

/** Upstream wordings of "the prompt does not fit the model's context window" (OpenAI, Anthropic, Gemini, Bedrock, vLLM). */
const CONTEXT_LENGTH =
  /context[ _-]?(length|window)|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds the maximum number of tokens/i;

/** The seconds to wait that a 429 names in its `retry-after` header (seconds, or an HTTP date), if any. */
function retryAfterSeconds(headers: Record<string, string>): number | undefined {
  const raw = headers['retry-after'] ?? headers['Retry-After'];
  if (raw === undefined) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : (Date.parse(raw) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : undefined;
}

/**
 * A failure -> `{code, message, param}` for the `error` field of a failed response and the stream's `error` event,
 * with the codes OpenAI sends and Codex acts on:
 * - `context_length_exceeded`: an upstream error coded so, or whose message says the prompt exceeds the context window
 *   (Codex compacts its history and retries);
 * - `insufficient_quota`: a quota or billing failure (Codex stops);
 * - `rate_limit_exceeded` (any other 429): the message ends with "Please try again in Ns." when the upstream's
 *   `retry-after` gave the wait (Codex waits that long);
 * - `invalid_prompt` for other 4xx, `server_error` for the rest.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-error
 */
export function toResponseError(error: unknown): { code: string; message: string; param: string | null } {
  if (!GatewayError.isInstance(error))
    return { code: 'server_error', message: 'The upstream stream failed.', param: null };
  const { message, param } = error;
  if (error.code === 'insufficient_quota' || error.type === 'insufficient_quota')
    return { code: 'insufficient_quota', message, param };
  if (
    error.code === 'context_length_exceeded' ||
    (error.status < 500 && error.status !== 429 && CONTEXT_LENGTH.test(message))
  ) {
    return { code: 'context_length_exceeded', message, param };
  }
  if (error.status === 429) {
    const wait = retryAfterSeconds(error.headers);
    const hint = wait !== undefined && !/try again in/i.test(message) ? ` Please try again in ${wait}s.` : '';
    return { code: 'rate_limit_exceeded', message: `${message}${hint}`, param };
  }
  return { code: error.status < 500 ? 'invalid_prompt' : 'server_error', message, param };
}

/**
 * A failure -> the `error` event (ResponseErrorEvent: `code`, `message`, `param`, `sequence_number`) that ends a
 * failed Responses stream, as SSE text. `sequenceNumber` is the stream's next sequence number (0 when no event was
 * sent yet, as for a call that failed after its stream was opened with keep-alive comments only). With `response`
 * (the in-progress response object of the request), a `response.failed` event carrying it with `status: "failed"` and
 * the `error` follows, so that clients waiting for the response's end (Codex) read the code there.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
export function encodeResponseErrorEvent(error: unknown, sequenceNumber = 0, response?: ResponseObject): string {
  const failure = toResponseError(error);
  const body = {
    type: 'error',
    code: failure.code,
    message: failure.message,
    param: failure.param,
    sequence_number: sequenceNumber,
  };
  let text = `event: error\ndata: ${JSON.stringify(body)}\n\n`;
  if (response) {
    const failed = { ...response, status: 'failed', error: { code: failure.code, message: failure.message } };
    text += `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', response: failed, sequence_number: sequenceNumber + 1 })}\n\n`;
  }
  return text;
}
