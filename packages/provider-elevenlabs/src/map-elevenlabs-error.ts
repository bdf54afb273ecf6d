import { createUpstreamErrorMapper, openAIErrorHooks, upstreamErrorCode } from '@switchyard/core';
import { type ElevenLabsErrorBody, elevenLabsErrorBodySchema } from './elevenlabs-error-schema.js';

/** ElevenLabs' own message and code (`detail`), or undefined when the body has none (then read as OpenAI's). */
function detailOf(body: ElevenLabsErrorBody): { message: string; code: string | null } | undefined {
  const detail = body.detail;
  if (typeof detail === 'string') return detail ? { message: detail, code: null } : undefined;
  if (Array.isArray(detail)) {
    const message = detail.map((issue) => `${(issue?.loc ?? []).join('.')}: ${issue?.msg ?? ''}`).join('; ');
    return message ? { message, code: null } : undefined;
  }
  return detail?.message ? { message: detail.message, code: detail.status ?? null } : undefined;
}

/**
 * Maps an ElevenLabs error answer to the client's error in OpenAI's shape: `(provider, status, bodyText, headers,
 * secrets)`. ElevenLabs sends `{"detail":{"status":"invalid_api_key","message":"..."}}` (or FastAPI's
 * `{"detail":[{loc,msg,type}]}` for validation errors, or `{"detail":"text"}`), read through
 * `elevenLabsErrorBodySchema`: the message and status code are kept (as core's `mapOpenAIError`), the key
 * redacted. Built by core's `createUpstreamErrorMapper`; never throws.
 * @see https://elevenlabs.io/docs/api-reference/errors
 */
export const mapElevenLabsError = createUpstreamErrorMapper({
  schema: elevenLabsErrorBodySchema,
  ...openAIErrorHooks,
  toMessage: (body) => detailOf(body)?.message ?? openAIErrorHooks.toMessage(body),
  toType: (body) => (detailOf(body) ? undefined : openAIErrorHooks.toType(body)),
  toParam: (body) => (detailOf(body) ? null : openAIErrorHooks.toParam(body)),
  toCode: (body) => {
    const detail = detailOf(body);
    return detail ? upstreamErrorCode(detail.code) : openAIErrorHooks.toCode(body);
  },
});
