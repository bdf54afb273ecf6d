import { GatewayError } from '../errors/gateway-error.js';

/** Backoff settings, ms: full jitter over `baseMs * 2^retry`, capped at `maxMs`. */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * The upstream's requested wait, ms, from `retry-after-ms` (ms) or `retry-after` (seconds or an HTTP date) in a
 * GatewayError's headers; undefined when absent.
 * @see https://www.rfc-editor.org/rfc/rfc9110#field.retry-after
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (!GatewayError.isInstance(error)) return undefined;
  const headers = Object.fromEntries(Object.entries(error.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `retry` (0-based), ms: the upstream's `retry-after` when it gave one, else
 * exponential backoff with full jitter: uniform in [0, min(maxMs, baseMs * 2^retry)].
 * @see https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
 */
export function retryDelayMs(
  retry: number,
  error: unknown,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const requested = retryAfterMs(error);
  if (requested !== undefined) return requested;
  return Math.floor(random() * Math.min(policy.maxMs, policy.baseMs * 2 ** retry));
}

/** True for failures worth another attempt: connection errors, timeouts, 408, 409, 429 and 5xx. Never 400/401/403/404/422. */
export function isRetryableError(error: unknown): boolean {
  return GatewayError.isInstance(error) && error.isRetryable;
}
