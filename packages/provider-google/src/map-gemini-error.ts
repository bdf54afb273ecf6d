import { type GatewayErrorCode, createUpstreamErrorMapper } from '@switchyard/core';
import { type GoogleErrorBody, googleErrorBodySchema } from './gemini-error-schema.js';

/** Google's canonical error `status` -> the OpenAI error type and code. */
const TYPES: Record<string, { type: string; code: GatewayErrorCode | null }> = {
  INVALID_ARGUMENT: { type: 'invalid_request_error', code: null },
  FAILED_PRECONDITION: { type: 'invalid_request_error', code: 'failed_precondition' },
  UNAUTHENTICATED: { type: 'invalid_request_error', code: 'invalid_api_key' },
  PERMISSION_DENIED: { type: 'invalid_request_error', code: 'permission_denied' },
  NOT_FOUND: { type: 'invalid_request_error', code: 'not_found' },
  RESOURCE_EXHAUSTED: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  INTERNAL: { type: 'server_error', code: null },
  UNAVAILABLE: { type: 'server_error', code: 'unavailable' },
  DEADLINE_EXCEEDED: { type: 'server_error', code: 'upstream_timeout' },
};

/** Whether the body says the API key is invalid (`ErrorInfo.reason: API_KEY_INVALID`, sent as HTTP 400). */
const invalidKey = (body: GoogleErrorBody): boolean =>
  body.error?.details?.some((detail) => detail?.reason === 'API_KEY_INVALID') ?? false;

/** The OpenAI type and code for the body's `status` (UNAUTHENTICATED's for an invalid key), or undefined. */
const typeOf = (body: GoogleErrorBody) => (invalidKey(body) ? TYPES.UNAUTHENTICATED : TYPES[body.error?.status ?? '']);

/**
 * Google's error (`{"error":{code, message, status, details}}`, read through `googleErrorBodySchema`) -> OpenAI-shaped
 * GatewayError: `(provider, status, bodyText, headers, secrets)`. The same HTTP status and message (the key redacted;
 * `details` are not passed on, they can echo the key). An invalid API key (`API_KEY_INVALID`, sent as 400) becomes
 * 401. `RetryInfo.retryDelay` (seconds, e.g. `"7s"`) becomes `retry-after-ms` for the gateway's retries and the
 * client; without it `retry-after` is kept. Built by core's `createUpstreamErrorMapper`; never throws.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export const mapGeminiError = createUpstreamErrorMapper({
  schema: googleErrorBodySchema,
  toMessage: (body) => body.error?.message,
  toStatus: (body) => (invalidKey(body) ? 401 : undefined),
  toType: (body) => typeOf(body)?.type,
  toCode: (body) => typeOf(body)?.code,
  keptHeaders: [],
  toHeaders: (body, { headers }): Record<string, string> => {
    const retryDelay = body.error?.details?.find((detail) => detail?.['@type']?.endsWith('RetryInfo'))?.retryDelay;
    const seconds = retryDelay ? Number.parseFloat(retryDelay) : Number.NaN;
    if (Number.isFinite(seconds)) return { 'retry-after-ms': String(Math.round(seconds * 1000)) };
    const retryAfter = headers['retry-after'];
    return typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {};
  },
});
