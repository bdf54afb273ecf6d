import { GatewayError } from '@switchyard/core';
import type { LimitState } from './limiter.js';
import type { VirtualKey } from './virtual-key.js';

/** Which of a key's limits refused a call: requests per minute, tokens per minute, budget, or concurrent calls. */
export type RateLimitKind = 'rpm' | 'tpm' | 'budget' | 'concurrency';

const kindMarker = Symbol.for('switchyard.rate-limit-kind');

/**
 * 429 in OpenAI's shape: `rate_limit_exceeded` (requests or tokens per minute), `insufficient_quota` (budget) or
 * `concurrency_limit_exceeded` (calls in flight), tagged with the limit's {@link RateLimitKind} (read it with
 * {@link rateLimitKind}).
 * @see https://platform.openai.com/docs/guides/error-codes#api-errors
 */
export function rateLimitError(
  message: string,
  code: 'rate_limit_exceeded' | 'insufficient_quota' | 'concurrency_limit_exceeded',
  headers: Record<string, string>,
  kind: RateLimitKind,
): GatewayError {
  const error = new GatewayError({
    status: 429,
    type: code === 'insufficient_quota' ? 'insufficient_quota' : 'requests',
    code,
    message,
    headers,
  });
  return Object.assign(error, { [kindMarker]: kind });
}

/** The limit that refused a call when `error` came from {@link rateLimitError} (gateway-side limits), else undefined. */
export function rateLimitKind(error: unknown): RateLimitKind | undefined {
  return typeof error === 'object' && error !== null
    ? ((error as Record<symbol, RateLimitKind | undefined>)[kindMarker] ?? undefined)
    : undefined;
}

/** 403: the key may not use this model. */
export function modelNotAllowedError(model: string, resolved: string = model): GatewayError {
  const what = resolved === model ? `'${model}'` : `'${model}' (an alias of '${resolved}')`;
  return new GatewayError({
    status: 403,
    type: 'invalid_request_error',
    code: 'model_not_allowed',
    param: 'model',
    message: `This API key is not allowed to use the model ${what}.`,
  });
}

/** Formats a wait in ms as OpenAI's reset headers do, e.g. `1s`, `6m0s`. */
export function formatResetMs(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
}

/**
 * OpenAI's rate-limit headers for a key: `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` for the limits it has.
 * @see https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers
 */
export function rateLimitHeaders(key: VirtualKey, state: LimitState): Record<string, string> {
  const headers: Record<string, string> = {};
  if (key.rpm_limit) {
    headers['x-ratelimit-limit-requests'] = String(key.rpm_limit);
    headers['x-ratelimit-remaining-requests'] = String(state.requestsRemaining ?? key.rpm_limit);
    headers['x-ratelimit-reset-requests'] = formatResetMs(state.requestsResetMs ?? 0);
  }
  if (key.tpm_limit) {
    headers['x-ratelimit-limit-tokens'] = String(key.tpm_limit);
    headers['x-ratelimit-remaining-tokens'] = String(state.tokensRemaining ?? key.tpm_limit);
    headers['x-ratelimit-reset-tokens'] = formatResetMs(state.tokensResetMs ?? 0);
  }
  return headers;
}
