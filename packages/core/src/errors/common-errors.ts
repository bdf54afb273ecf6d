import { GatewayError } from './gateway-error.js';
import type { ErrorCode } from './gateway-error-codes.js';

/** 400 `invalid_request_error` naming the offending request field (`param`). */
export function invalidRequestError(
  message: string,
  param: string | null = null,
  code: ErrorCode | null = null,
): GatewayError {
  return new GatewayError({ status: 400, type: 'invalid_request_error', message, param, code });
}

/** 401: the `Authorization: Bearer` key is missing or not one the gateway issued. */
export function authenticationError(message: string): GatewayError {
  return new GatewayError({ status: 401, type: 'invalid_request_error', code: 'invalid_api_key', message });
}

/** 404 `model_not_found`: the requested model is neither a configured id nor `<provider>/<upstream id>`. */
export function modelNotFoundError(model: string): GatewayError {
  return new GatewayError({
    status: 404,
    type: 'invalid_request_error',
    code: 'model_not_found',
    param: 'model',
    message: `The model '${model}' does not exist or you do not have access to it.`,
  });
}

/** 400 `unsupported_operation`: the model's provider has no such operation (e.g. embeddings on Anthropic). */
export function unsupportedOperationError(operation: string, model: string, provider: string): GatewayError {
  return new GatewayError({
    status: 400,
    type: 'invalid_request_error',
    code: 'unsupported_operation',
    param: 'model',
    message: `The model '${model}' (provider '${provider}') does not support ${operation}.`,
  });
}

/** 502: the upstream could not be reached or broke the connection. */
export function upstreamUnreachableError(provider: string, cause?: unknown): GatewayError {
  return new GatewayError({
    status: 502,
    type: 'server_error',
    code: 'upstream_unreachable',
    message: `The upstream provider '${provider}' could not be reached.`,
    cause,
  });
}

/** 504: the upstream did not answer in time. */
export function upstreamTimeoutError(provider: string, cause?: unknown): GatewayError {
  return new GatewayError({
    status: 504,
    type: 'server_error',
    code: 'upstream_timeout',
    message: `The upstream provider '${provider}' timed out.`,
    cause,
  });
}

/** 502: the upstream answered something that is not what its API documents (bad JSON, broken stream). */
export function upstreamInvalidResponseError(provider: string, detail: string, cause?: unknown): GatewayError {
  return new GatewayError({
    status: 502,
    type: 'server_error',
    code: 'upstream_invalid_response',
    message: `The upstream provider '${provider}' sent an invalid response: ${detail}`,
    cause,
  });
}

/**
 * 502 `upstream_auth_failed`: the upstream answered 401 or 403, i.e. it rejected the gateway's own credentials for
 * that provider (not the client's key). `detail` is the upstream's own message, already redacted by the adapter; at most
 * 200 characters of it are kept. Fails over to other deployments but is not retried on the same one.
 */
export function upstreamCredentialsError(provider: string, status: number, detail?: string): GatewayError {
  const said = detail ? ` The upstream said: ${detail.length > 200 ? `${detail.slice(0, 200)}…` : detail}` : '';
  return new GatewayError({
    status: 502,
    type: 'server_error',
    code: 'upstream_auth_failed',
    message: `The upstream provider '${provider}' rejected the gateway's credentials (HTTP ${status}): check the API key and permissions configured for provider '${provider}'.${said}`,
    retry: 'other-target',
  });
}
