import { createUpstreamErrorMapper, openAIErrorHooks, upstreamErrorCode } from '@switchyard/core';
import { deepgramErrorBodySchema } from './deepgram-error-schema.js';

/**
 * Maps a Deepgram error answer (`{"err_code":"INVALID_AUTH","err_msg":"Invalid credentials.","request_id":...}`, read
 * through `deepgramErrorBodySchema`) to the client's error in OpenAI's shape: `(provider, status, bodyText, headers,
 * secrets)`; the status kept (as core's `mapOpenAIError`), `err_msg` as the message, `err_code` as the
 * code, the key redacted; a body without `err_msg` is read as OpenAI's. Built by core's `createUpstreamErrorMapper`;
 * never throws.
 * @see https://developers.deepgram.com/docs/errors
 */
export const mapDeepgramError = createUpstreamErrorMapper({
  schema: deepgramErrorBodySchema,
  ...openAIErrorHooks,
  toMessage: (body) => body.err_msg || openAIErrorHooks.toMessage(body),
  toType: (body) => (body.err_msg ? undefined : openAIErrorHooks.toType(body)),
  toParam: (body) => (body.err_msg ? null : openAIErrorHooks.toParam(body)),
  toCode: (body) => (body.err_msg ? upstreamErrorCode(body.err_code ?? null) : openAIErrorHooks.toCode(body)),
});
