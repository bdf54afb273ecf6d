import { GatewayError, redactSecrets, parseJsonOrUndefined } from '@switchyard/core';

interface MappedType {
  status: number;
  type: string;
  code: string;
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

/** The exception name from `x-amzn-errortype` (`ValidationException:http://...`) or the body's `__type`. */
function exceptionName(headers: Record<string, string | string[] | undefined>, body: Record<string, unknown> | undefined): string | undefined {
  const header = headers['x-amzn-errortype'];
  const raw = (typeof header === 'string' ? header : undefined) ?? (typeof body?.__type === 'string' ? body.__type : undefined);
  if (!raw) return undefined;
  const name = raw.split(':')[0]!.split('#').pop()!;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * Maps a Bedrock exception to the client's error. `name` is the exception (e.g. `ThrottlingException`, or the
 * lower-camel `throttlingException` of a stream exception frame), `message` its text, `status` the upstream HTTP status
 * used when the name is unknown. Mapping: Throttling/ServiceQuotaExceeded -> 429, Validation -> 400 (with `param`
 * when the message names a field it knows, e.g. `maxTokens` -> `max_tokens`), AccessDenied -> 403, ResourceNotFound ->
 * 404, ModelTimeout -> 504, ServiceUnavailable/ModelNotReady -> 503, InternalServer -> 500, ModelError/
 * ModelStreamError -> 502, bad or expired AWS credentials -> 403 `authentication_error`. 429 and 5xx are retried by
 * the gateway's routing rules. `secrets` are redacted from the message.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
 */
export function mapBedrockException(provider: string, name: string | undefined, message: string | undefined, status: number, secrets: readonly (string | undefined)[]): GatewayError {
  const key = name ? name.charAt(0).toUpperCase() + name.slice(1) : undefined;
  const mapped = (key && EXCEPTIONS[key]) || undefined;
  const finalStatus = mapped?.status ?? (status >= 400 && status <= 599 ? status : 502);
  const text = message || `The upstream provider '${provider}' answered ${key ?? `HTTP ${status}`}.`;
  const param = key === 'ValidationException' ? (PARAMS.find(([pattern]) => pattern.test(text))?.[1] ?? null) : null;
  return new GatewayError({
    status: finalStatus,
    type: mapped?.type ?? (finalStatus >= 500 ? 'server_error' : 'invalid_request_error'),
    code: mapped?.code ?? (key ? key : null),
    param,
    message: redactSecrets(key && !mapped ? `${key}: ${text}` : text, secrets),
  });
}

/**
 * Maps a Bedrock HTTP error answer (status >= 400; body `{"message": "..."}` or `{"Message": "..."}`, exception name in
 * `x-amzn-errortype` or `__type`) with {@link mapBedrockException}. Returns the error; never throws.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 */
export function mapBedrockError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  const body = parseJsonOrUndefined(bodyText) as Record<string, unknown> | undefined;
  const message = typeof body?.message === 'string' ? body.message : typeof body?.Message === 'string' ? body.Message : bodyText.slice(0, 200) || undefined;
  return mapBedrockException(provider, exceptionName(headers, body), message, status, secrets);
}
