import { type GatewayError, parseJsonOrUndefined } from '@switchyard/core';
import { mapOpenAIError } from '@switchyard/provider-openai';

/**
 * Maps an ElevenLabs error answer to the client's error in OpenAI's shape. ElevenLabs sends
 * `{"detail":{"status":"invalid_api_key","message":"..."}}` (or FastAPI's `{"detail":[{loc,msg,type}]}` for
 * validation errors, or `{"detail":"text"}`): the message and status code are kept (see provider-openai's
 * `mapOpenAIError`), the key redacted. Returns the error; never throws.
 * @see https://elevenlabs.io/docs/api-reference/errors
 */
export function mapElevenLabsError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  const detail = (parseJsonOrUndefined(bodyText) as { detail?: unknown } | null | undefined)?.detail;
  let message: string | undefined;
  let code: string | null = null;
  if (typeof detail === 'string') message = detail;
  else if (Array.isArray(detail)) message = detail.map((d: { msg?: string; loc?: unknown[] }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`).join('; ');
  else if (detail && typeof detail === 'object') {
    const d = detail as { message?: unknown; status?: unknown };
    if (typeof d.message === 'string') message = d.message;
    if (typeof d.status === 'string') code = d.status;
  }
  if (!message) return mapOpenAIError(provider, status, bodyText, headers, secrets);
  return mapOpenAIError(provider, status, JSON.stringify({ error: { message, code } }), headers, secrets);
}
