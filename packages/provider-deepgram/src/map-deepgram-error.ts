import { type GatewayError, parseJsonOrUndefined } from '@switchyard/core';
import { mapOpenAIError } from '@switchyard/provider-openai';

/**
 * Maps a Deepgram error answer (`{"err_code":"INVALID_AUTH","err_msg":"Invalid credentials.","request_id":...}`) to
 * the client's error in OpenAI's shape: the status kept (see provider-openai's `mapOpenAIError`), `err_msg` as the
 * message, `err_code` as the code, the key redacted. Returns the error; never throws.
 * @see https://developers.deepgram.com/docs/errors
 */
export function mapDeepgramError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  const body = parseJsonOrUndefined(bodyText) as { err_code?: unknown; err_msg?: unknown } | null | undefined;
  if (typeof body?.err_msg !== 'string') return mapOpenAIError(provider, status, bodyText, headers, secrets);
  const code = typeof body.err_code === 'string' ? body.err_code : null;
  return mapOpenAIError(provider, status, JSON.stringify({ error: { message: body.err_msg, code } }), headers, secrets);
}
