/**
 * Every error `code` Switchyard itself answers with, each key equal to its value (`GATEWAY_ERROR_CODES.model_not_found
 * === 'model_not_found'`), each with when it is used. The names follow OpenAI's where OpenAI has one
 * (`invalid_api_key`, `model_not_found`, `rate_limit_exceeded`, the request-validation codes). A code an upstream sent
 * and the gateway passes on unchanged is not listed here: it is an {@link UpstreamErrorCode}, made by
 * {@link upstreamErrorCode}. A code is part of the wire format: never rename one.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export const GATEWAY_ERROR_CODES = {
  // Request validation (400), OpenAI's names; `fromZodError` and the front doors' own checks.
  /** A required request field is absent. */
  missing_required_parameter: 'missing_required_parameter',
  /** A request field has the wrong JSON type. */
  invalid_type: 'invalid_type',
  /** A request field's value is not one the API accepts. */
  invalid_value: 'invalid_value',
  /** An array request field has more items than allowed. */
  array_above_max_length: 'array_above_max_length',
  /** An array request field has fewer items than required. */
  array_below_min_length: 'array_below_min_length',
  /** A string request field is longer than allowed. */
  string_above_max_length: 'string_above_max_length',
  /** A string request field is shorter than required. */
  string_below_min_length: 'string_below_min_length',
  /** A number request field is above its maximum. */
  decimal_above_max_value: 'decimal_above_max_value',
  /** A number request field is below its minimum. */
  decimal_below_min_value: 'decimal_below_min_value',
  /** A request parameter the chosen model or provider cannot honour, refused rather than dropped. */
  unsupported_parameter: 'unsupported_parameter',
  /** A tool type the front door or provider cannot translate. */
  unsupported_tool: 'unsupported_tool',
  /** A `tool_choice` the front door cannot translate. */
  unsupported_tool_choice: 'unsupported_tool_choice',
  /** The request body is not a JSON object. */
  invalid_body: 'invalid_body',
  /** A model id in the request breaks the rule for model ids (length, spaces, control characters). */
  invalid_model_id: 'invalid_model_id',
  /** No deployment of the model supports a capability the request needs (e.g. tools, audio input). */
  capability_not_supported: 'capability_not_supported',
  /** A request value the front door or provider does not support (a content part type, a format, an option). */
  unsupported_value: 'unsupported_value',
  /** A content part the provider cannot take (e.g. a file type Anthropic or Gemini does not read). */
  unsupported_content: 'unsupported_content',
  /** A content part type the provider's API does not take at that place (Bedrock Converse). */
  unsupported_content_type: 'unsupported_content_type',
  /** An input the operation cannot classify or read (e.g. an image sent to a text-only moderation model). */
  unsupported_input: 'unsupported_input',
  /** The model is not one this adapter can call for the operation (e.g. an image model on Bedrock). */
  unsupported_model: 'unsupported_model',
  /** An image URL the provider cannot take (e.g. a web URL where the provider needs the bytes). */
  unsupported_image_url: 'unsupported_image_url',
  /** An image format the provider does not accept. */
  unsupported_image_format: 'unsupported_image_format',
  /** An image URL that is neither http(s) nor a base64 data URL of a supported image type. */
  invalid_image_url: 'invalid_image_url',
  /** A tool call's `arguments` is not a JSON string. */
  invalid_tool_arguments: 'invalid_tool_arguments',
  /** A `x-switchyard-*` request header has an invalid value. */
  invalid_header: 'invalid_header',
  /** The model's provider has no such operation (e.g. embeddings on Anthropic). */
  unsupported_operation: 'unsupported_operation',

  // Request body and uploads (HTTP layer of the gateway app).
  /** The body is not valid JSON. */
  invalid_json: 'invalid_json',
  /** The JSON body nests objects and arrays deeper than the gateway parses. */
  json_too_deep: 'json_too_deep',
  /** 413: the request body is larger than the configured limit (also Anthropic's `request_too_large`). */
  request_too_large: 'request_too_large',
  /** 415: the body's content type is not one the endpoint reads. */
  unsupported_media_type: 'unsupported_media_type',
  /** A multipart body that cannot be parsed. */
  invalid_multipart: 'invalid_multipart',
  /** An uploaded file is above the size limit. */
  file_too_large: 'file_too_large',
  /** An uploaded file has no content. */
  empty_file: 'empty_file',
  /** A multipart form field (name or value) is above its size limit. */
  field_too_large: 'field_too_large',
  /** A multipart form has more parts or fields than allowed. */
  too_many_parts: 'too_many_parts',
  /** A key's stored files would exceed its storage quota. */
  storage_quota_exceeded: 'storage_quota_exceeded',

  // The Responses API's stored responses.
  /** An `item_reference` names an item no stored response of the key holds. */
  item_not_found: 'item_not_found',
  /** `previous_response_id` (or a response earlier in its chain) is not stored, expired or belongs to another key. */
  previous_response_not_found: 'previous_response_not_found',
  /** A stored request's input is larger than what one key may keep in stored responses. */
  stored_bytes_quota_exceeded: 'stored_bytes_quota_exceeded',

  // Keys, accounts and limits.
  /** 401: the `Authorization: Bearer` key is missing, unknown or revoked (also an upstream's 401, before mapping). */
  invalid_api_key: 'invalid_api_key',
  /** 404: the model is neither a configured id nor `<provider>/<upstream id>` (also Bedrock's missing resource). */
  model_not_found: 'model_not_found',
  /** 403: the key may not call this model. */
  model_not_allowed: 'model_not_allowed',
  /** 403: the model has no price while the key has a budget, so its cost could not be counted. */
  model_not_priced: 'model_not_priced',
  /** 429: a rate limit (requests or tokens per window) of the key, team or upstream is reached. */
  rate_limit_exceeded: 'rate_limit_exceeded',
  /** 429: the key's `concurrency_limit` calls are already in flight. */
  concurrency_limit_exceeded: 'concurrency_limit_exceeded',
  /** 429 (402 upstream): a budget of the key, team or organization, or the upstream account's credit, is spent. */
  insufficient_quota: 'insufficient_quota',
  /** 503: the shared limiter (Redis) cannot be reached, so limits cannot be enforced. */
  limits_unavailable: 'limits_unavailable',
  /** 409: the key is revoked and cannot be changed. */
  key_revoked: 'key_revoked',
  /** 404: no key with that id (admin API). */
  key_not_found: 'key_not_found',
  /** 404: no team with that id (admin API). */
  team_not_found: 'team_not_found',
  /** 409: the team still has keys and cannot be deleted. */
  team_has_keys: 'team_has_keys',
  /** 404: no organization with that id (admin API). */
  organization_not_found: 'organization_not_found',
  /** 409: the organization still has teams and cannot be deleted. */
  organization_has_teams: 'organization_has_teams',

  // Admin API and console sign-in.
  /** 403: the caller's role may not do this (admin API, metrics). */
  forbidden: 'forbidden',
  /** 403: a cookie session's state-changing request lacks the right CSRF token. */
  csrf_token_invalid: 'csrf_token_invalid',
  /** 401: the console request carries no session. */
  not_signed_in: 'not_signed_in',
  /** 401: the console session has expired. */
  session_expired: 'session_expired',
  /** 400: the OpenID Connect sign-in in progress is gone or too old. */
  sign_in_expired: 'sign_in_expired',
  /** 400: the OpenID Connect provider's callback was refused (bad state, signature or token). */
  sign_in_failed: 'sign_in_failed',
  /** 403: the signed-in identity maps to no console role. */
  no_console_role: 'no_console_role',
  /** 403: the identity provider refused the sign-in. */
  refused: 'refused',
  /** 502: the OpenID Connect provider cannot be reached. */
  oidc_provider_unavailable: 'oidc_provider_unavailable',
  /** 404: the console's files were not built into this install. */
  console_not_built: 'console_not_built',

  // Routing and the gateway's own capacity.
  /** 503: every deployment of the model failed or is cooling down. */
  no_available_target: 'no_available_target',
  /** 429: every deployment of the model stayed at its `max_concurrency` through the queue. */
  deployments_at_capacity: 'deployments_at_capacity',
  /** 499 (never sent): a hedged attempt aborted because the other attempt answered first. */
  hedge_lost: 'hedge_lost',
  /** 503: the gateway is at its connection or stream cap for this client. */
  server_busy: 'server_busy',
  /** 503: the gateway is shutting down and takes no new work. */
  server_shutting_down: 'server_shutting_down',
  /** 499: the client went away before the answer was complete. */
  client_closed_request: 'client_closed_request',
  /** The client read a stream too slowly; the gateway stopped writing to it. */
  client_write_timeout: 'client_write_timeout',
  /** A model listing left out a provider that could not answer (warning and `onError`). */
  provider_unavailable: 'provider_unavailable',
  /** 500: a failure inside the gateway (realtime upgrade). */
  internal_error: 'internal_error',
  /** 404: no such route or resource (realtime path, an upstream's 404 after mapping). */
  not_found: 'not_found',

  // Upstream failures, named by the gateway.
  /** 502: the upstream could not be reached or broke the connection. */
  upstream_unreachable: 'upstream_unreachable',
  /** 504: the upstream did not answer (or finish a stream) in time. */
  upstream_timeout: 'upstream_timeout',
  /** 502: the upstream answered something its API does not document. */
  upstream_invalid_response: 'upstream_invalid_response',
  /** 502: the upstream's answer is larger than the configured body limit. */
  upstream_response_too_large: 'upstream_response_too_large',
  /** 502: the upstream rejected the gateway's own credentials for that provider. */
  upstream_auth_failed: 'upstream_auth_failed',
  /** A stream failed after it started (an error event, or a broken upstream stream). */
  upstream_stream_error: 'upstream_stream_error',
  /** 5xx: the upstream failed without a more precise reason. */
  upstream_error: 'upstream_error',
  /** The upstream refused the content (safety filter, blocked prompt or image). */
  content_filter: 'content_filter',

  // Upstream errors translated from a provider's own names (Anthropic, Bedrock, Gemini) to one code each.
  /** 403: the upstream refused access to the model or resource (Anthropic, Gemini). */
  permission_denied: 'permission_denied',
  /** 503: the upstream is overloaded (Anthropic `overloaded_error`). */
  overloaded: 'overloaded',
  /** 400: a precondition of the upstream failed (Gemini `FAILED_PRECONDITION`). */
  failed_precondition: 'failed_precondition',
  /** 503: the upstream is unavailable (Gemini `UNAVAILABLE`). */
  unavailable: 'unavailable',
  /** 503: the upstream service is unavailable (Bedrock `ServiceUnavailableException`). */
  service_unavailable: 'service_unavailable',
  /** 503: the upstream model is not ready yet (Bedrock `ModelNotReadyException`). */
  model_not_ready: 'model_not_ready',
  /** 400: the upstream refused the request as invalid (Bedrock `ValidationException`). */
  invalid_request: 'invalid_request',
  /** 403: the upstream refused access (Bedrock `AccessDeniedException`). */
  access_denied: 'access_denied',
  /** 502: the upstream model failed (Bedrock `ModelErrorException`). */
  model_error: 'model_error',
  /** 502: the upstream model's stream failed (Bedrock `ModelStreamErrorException`). */
  model_stream_error: 'model_stream_error',
  /** 403: the upstream refused the gateway's signature or credentials (Bedrock), before `upstream_auth_failed`. */
  invalid_upstream_credentials: 'invalid_upstream_credentials',

  // Batches.
  /** A batch request line did not run before the batch expired. */
  batch_expired: 'batch_expired',
  /** A batch request line did not run because the batch was cancelled. */
  batch_cancelled: 'batch_cancelled',
} as const;

/** One of the gateway's own error codes: a key of {@link GATEWAY_ERROR_CODES}. A typo fails typecheck. */
export type GatewayErrorCode = keyof typeof GATEWAY_ERROR_CODES;

declare const upstreamErrorCodeBrand: unique symbol;

/**
 * An error code an upstream sent (e.g. OpenAI's `context_length_exceeded`), passed on to the client unchanged. A string
 * branded so that only {@link upstreamErrorCode} makes one: a plain literal is not an `UpstreamErrorCode`, so a
 * misspelt gateway code cannot slip through as one.
 */
export type UpstreamErrorCode = string & { readonly [upstreamErrorCodeBrand]: 'UpstreamErrorCode' };

/**
 * A GatewayError's `code`: the gateway's own ({@link GatewayErrorCode}) or an upstream's ({@link UpstreamErrorCode}).
 */
export type ErrorCode = GatewayErrorCode | UpstreamErrorCode;

/**
 * Marks a code read from an upstream's answer (a provider's error body or stream error event) as one to pass on
 * unchanged: `upstreamErrorCode('context_length_exceeded')`. `null` and `undefined` are returned as they are, so an
 * optional field can be passed straight through. The one way to make an {@link UpstreamErrorCode}; no check or copy.
 */
export function upstreamErrorCode(code: string): UpstreamErrorCode;
export function upstreamErrorCode(code: string | null): UpstreamErrorCode | null;
export function upstreamErrorCode(code: string | null | undefined): UpstreamErrorCode | null | undefined;
export function upstreamErrorCode(code: string | null | undefined): UpstreamErrorCode | null | undefined {
  return code as UpstreamErrorCode | null | undefined;
}

/** True when `code` is one of the gateway's own codes ({@link GATEWAY_ERROR_CODES}). */
export function isGatewayErrorCode(code: unknown): code is GatewayErrorCode {
  return typeof code === 'string' && Object.hasOwn(GATEWAY_ERROR_CODES, code);
}
