import { GatewayError, parseJsonOrUndefined, redactSecrets } from '@switchyard/core';
import { cohereErrorSchema } from './cohere-api.js';

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/**
 * Cohere error answer (`{"id","message"}`) -> OpenAI-shaped GatewayError with the same status and message
 * (the API key redacted); types follow the status (429 `rate_limit_error`, 5xx `server_error`).
 * @see https://docs.cohere.com/reference/errors
 */
export function mapCohereError(
  provider: string,
  status: number,
  bodyText: string,
  secrets: readonly (string | undefined)[],
): GatewayError {
  const body = cohereErrorSchema.safeParse(parseJsonOrUndefined(bodyText));
  const message = body.success ? body.data.message : undefined;
  return new GatewayError({
    status,
    type: TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
    message: redactSecrets(message ?? `The upstream provider '${provider}' answered HTTP ${status}.`, secrets),
  });
}
