import {
  type GatewayError,
  type GatewayErrorCode,
  type UpstreamResponseHeaders,
  createUpstreamErrorMapper,
  upstreamErrorCode,
} from '@switchyard/core';
import { type BedrockErrorBody, bedrockErrorBodySchema } from './bedrock-error-schema.js';

interface MappedType {
  status: number;
  type: string;
  code: GatewayErrorCode;
}

/** Bedrock's exception names -> the client's status, OpenAI error type and code. */
const EXCEPTIONS: Record<string, MappedType> = {
  ThrottlingException: { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  ServiceQuotaExceededException: { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  ModelNotReadyException: { status: 503, type: 'server_error', code: 'model_not_ready' },
  ValidationException: { status: 400, type: 'invalid_request_error', code: 'invalid_request' },
  AccessDeniedException: { status: 403, type: 'permission_error', code: 'access_denied' },
  ResourceNotFoundException: { status: 404, type: 'invalid_request_error', code: 'model_not_found' },
  ModelTimeoutException: { status: 504, type: 'server_error', code: 'upstream_timeout' },
  ServiceUnavailableException: { status: 503, type: 'server_error', code: 'service_unavailable' },
  InternalServerException: { status: 500, type: 'server_error', code: 'upstream_error' },
  ModelErrorException: { status: 502, type: 'server_error', code: 'model_error' },
  ModelStreamErrorException: { status: 502, type: 'server_error', code: 'model_stream_error' },
  UnrecognizedClientException: { status: 403, type: 'authentication_error', code: 'invalid_upstream_credentials' },
  InvalidSignatureException: { status: 403, type: 'authentication_error', code: 'invalid_upstream_credentials' },
  IncompleteSignatureException: { status: 403, type: 'authentication_error', code: 'invalid_upstream_credentials' },
  ExpiredTokenException: { status: 403, type: 'authentication_error', code: 'invalid_upstream_credentials' },
};

/** Request fields a ValidationException message may be about, by the Bedrock name it uses -> OpenAI's name. */
const PARAMS: readonly [RegExp, string][] = [
  [/maxTokens|max_tokens/i, 'max_tokens'],
  [/temperature/i, 'temperature'],
  [/topP|top_p/i, 'top_p'],
  [/stopSequences/i, 'stop'],
  [/toolConfig|toolSpec|toolChoice|tool_use|toolUse/i, 'tools'],
  [/model identifier|model id|modelId/i, 'model'],
  [/dimensions/i, 'dimensions'],
  [/image|width|height/i, 'messages'],
  [/messages|conversation|content/i, 'messages'],
];

/** The exception name from `x-amzn-errortype` (`ValidationException:http://...`) or the body's `__type`, capitalized. */
function exceptionName(headers: UpstreamResponseHeaders, body: BedrockErrorBody): string | undefined {
  const header = headers['x-amzn-errortype'];
  const raw = (typeof header === 'string' ? header : undefined) ?? body.__type;
  if (!raw) return undefined;
  const name = raw.split(':')[0]!.split('#').pop()!;
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : undefined;
}

/** What the exception means to the client, or undefined for a name this adapter does not know. */
const mappedOf = (name: string | undefined): MappedType | undefined =>
  name && Object.hasOwn(EXCEPTIONS, name) ? EXCEPTIONS[name] : undefined;

/**
 * Maps a Bedrock HTTP error answer (status >= 400; body `{"message": "..."}` or `{"Message": "..."}`, exception name in
 * `x-amzn-errortype` or `__type`, read through `bedrockErrorBodySchema`) to the client's error: `(provider, status,
 * bodyText, headers, secrets)`. Mapping: Throttling/ServiceQuotaExceeded -> 429, Validation -> 400 (with `param` when
 * the message names a field it knows, e.g. `maxTokens` -> `max_tokens`), AccessDenied -> 403, ResourceNotFound -> 404,
 * ModelTimeout -> 504, ServiceUnavailable/ModelNotReady -> 503, InternalServer -> 500, ModelError/ModelStreamError ->
 * 502, bad or expired AWS credentials -> 403 `authentication_error`; an unknown name keeps the upstream status and
 * becomes the code (and prefixes the message). 429 and 5xx are retried by the gateway's routing rules. `secrets` are
 * redacted. Built by core's `createUpstreamErrorMapper`; never throws.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
 */
export const mapBedrockError = createUpstreamErrorMapper({
  schema: bedrockErrorBodySchema,
  toMessage: (body, { headers, provider, status, readable }) => {
    const name = exceptionName(headers, body);
    // A body that is not JSON is quoted by the generic message instead.
    if (!body.message && !body.Message && !readable) return undefined;
    const said =
      body.message || body.Message || `The upstream provider '${provider}' answered ${name ?? `HTTP ${status}`}.`;
    return name && !mappedOf(name) ? `${name}: ${said}` : said;
  },
  toStatus: (body, { headers }) => mappedOf(exceptionName(headers, body))?.status,
  toType: (body, { headers }) => mappedOf(exceptionName(headers, body))?.type,
  toCode: (body, { headers }) => {
    const name = exceptionName(headers, body);
    return mappedOf(name)?.code ?? upstreamErrorCode(name);
  },
  toParam: (body, { headers }) => {
    if (exceptionName(headers, body) !== 'ValidationException') return undefined;
    const said = body.message || body.Message || '';
    return PARAMS.find(([pattern]) => pattern.test(said))?.[1];
  },
});

/**
 * Maps a Bedrock exception inside a stream (an `:message-type: exception` frame: `name` from `:exception-type`, e.g.
 * the lower-camel `throttlingException`, `message` from its payload or `:error-message`) as {@link mapBedrockError}
 * maps an HTTP answer; `status` is used when the name is unknown (502 inside a stream). Never throws.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function mapBedrockException(
  provider: string,
  name: string | undefined,
  message: string | undefined,
  status: number,
  secrets: readonly (string | undefined)[],
): GatewayError {
  return mapBedrockError(provider, status, JSON.stringify({ __type: name, message }), {}, secrets);
}
