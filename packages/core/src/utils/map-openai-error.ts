import { upstreamErrorCode } from '../errors/gateway-error-codes.js';
import { type UpstreamErrorMapperOptions, createUpstreamErrorMapper } from './create-upstream-error-mapper.js';
import { type OpenAIErrorBody, type OpenAIErrorObject, openAIErrorBodySchema } from './openai-error-body.js';

/** The `error` object of a body: `{"error":{...}}`, or the body itself for servers that send its fields at the top. */
function errorObject(body: OpenAIErrorBody): OpenAIErrorObject {
  return typeof body.error === 'object' ? body.error : body;
}

/**
 * The hooks reading OpenAI's error shape (message, type, param, code; `{"error":"text"}` as the message; 529 ->
 * 503; the error `type` by status when the body has none), shared by the adapters whose errors are OpenAI's plus
 * additions (Azure, Deepgram, ElevenLabs, Cohere's compatible answers).
 */
export const openAIErrorHooks = {
  toMessage: (body) => (typeof body.error === 'string' ? body.error : errorObject(body).message),
  toType: (body) => errorObject(body).type,
  toParam: (body) => errorObject(body).param,
  toCode: (body) => upstreamErrorCode(errorObject(body).code),
  statusMap: { 529: 503 },
  typeByStatus: {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    409: 'conflict_error',
    422: 'invalid_request_error',
    429: 'rate_limit_error',
  },
} satisfies Omit<UpstreamErrorMapperOptions<OpenAIErrorBody>, 'schema'>;

/**
 * Maps an OpenAI(-compatible) error answer to the client's error: `(provider, status, bodyText, headers, secrets)`.
 * The status is kept (529 "overloaded" becomes 503, anything outside 400..599 502), `{"error":{message,type,param,code}}`
 * is read through {@link openAIErrorBodySchema} (some compatible servers send `{"error":"text"}` or `{"message":...}`),
 * `retry-after` / `retry-after-ms` are kept for clients and retries, and `secrets` (the upstream key, and pieces of
 * it) are redacted from the whole body before any field is read. A body without a message (HTML from a proxy, empty)
 * gives `The upstream provider '<provider>' answered HTTP <status>` plus the first 200 characters of the body. Built
 * by {@link createUpstreamErrorMapper}; never throws.
 * @see https://platform.openai.com/docs/guides/error-codes/api-errors
 */
export const mapOpenAIError = createUpstreamErrorMapper({ schema: openAIErrorBodySchema, ...openAIErrorHooks });
