import { GatewayError } from '@switchyard/core';

/** 429 in OpenAI's shape: `rate_limit_exceeded` (requests or tokens per minute) or `insufficient_quota` (budget). */
export function rateLimitError(message: string, code: 'rate_limit_exceeded' | 'insufficient_quota', headers: Record<string, string>): GatewayError {
  return new GatewayError({ status: 429, type: code === 'insufficient_quota' ? 'insufficient_quota' : 'requests', code, message, headers });
}

/** 403: the key may not use this model. */
export function modelNotAllowedError(model: string): GatewayError {
  return new GatewayError({ status: 403, type: 'invalid_request_error', code: 'model_not_allowed', param: 'model', message: `This API key is not allowed to use the model '${model}'.` });
}

/** Formats a wait in ms as OpenAI's reset headers do, e.g. `1s`, `6m0s`. */
export function formatResetMs(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
}
