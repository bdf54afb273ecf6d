import { type GatewayError, parseJsonOrUndefined, mapOpenAIError } from '@switchyard/core';
import { responsesStreamErrorSchema } from './openai-error-schema.js';

/** HTTP status per Responses error code (ResponseErrorCode) that has an obvious one; image and prompt codes are 400. */
const STATUS_BY_CODE: Record<string, number> = {
  rate_limit_exceeded: 429,
  server_error: 500,
  vector_store_timeout: 504,
  invalid_prompt: 400,
};

/** The status a Responses error `code` implies: {@link STATUS_BY_CODE}, 400 for image input codes, else 502. */
function statusOf(code: string | undefined): number {
  if (code === undefined) return 502;
  if (STATUS_BY_CODE[code] !== undefined) return STATUS_BY_CODE[code]!;
  return /image|^empty_|^unsupported_|^failed_to_download/.test(code) ? 400 : 502;
}

/**
 * The GatewayError for a failure an OpenAI Responses stream reports inside itself (after its HTTP 200): an `error`
 * event (`{"type":"error","code","message","param"}`; an `{"error":{...}}` wrapper is read too) or `response.failed`
 * (`response.error` `{code, message}`), read through `responsesStreamErrorSchema`. The status is the one the code
 * implies (`rate_limit_exceeded` 429, `server_error` 500, `vector_store_timeout` 504, `invalid_prompt` and image codes
 * 400), else 502; message, code and param are the upstream's, with `secrets` redacted (see `mapOpenAIError`); an event
 * that is not of that shape gives 502 and a generic message. Undefined for any other event.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/response/failed
 */
export function mapResponsesStreamError(
  provider: string,
  event: string,
  data: string,
  secrets: readonly (string | undefined)[],
): GatewayError | undefined {
  if (event !== 'error' && event !== 'response.failed') return undefined;
  const read = responsesStreamErrorSchema.safeParse(parseJsonOrUndefined(data));
  const parsed = read.success ? read.data : undefined;
  const error = (event === 'response.failed' ? parsed?.response?.error : (parsed?.error ?? parsed)) ?? {};
  const message = error.message || `The upstream provider '${provider}' reported a failed response.`;
  const body = { error: { message, code: error.code ?? null, param: error.param ?? null } };
  return mapOpenAIError(provider, statusOf(error.code), JSON.stringify(body), {}, secrets);
}
