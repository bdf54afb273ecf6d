import { GatewayError } from '@switchyard/core';

/** What limits do while Redis is unreachable: `open` admits calls (unlimited), `closed` refuses them with 503. */
export type RedisFailureMode = 'open' | 'closed';

/** 503 `limits_unavailable` in OpenAI's shape: the shared limits cannot be checked (`redis.on_error: closed`). */
export function limitsUnavailableError(): GatewayError {
  return new GatewayError({
    status: 503,
    type: 'server_error',
    code: 'limits_unavailable',
    message: 'Rate limits and budgets cannot be checked right now (their store is unreachable). Try again shortly.',
    headers: { 'retry-after': '1' },
  });
}

/**
 * Reports Redis failures without flooding the log: `warn` is called at most once per `intervalMs` (default one
 * minute), with the number of failures since the last report. The error's message never carries credentials: ioredis
 * messages name the host and port only.
 */
export class FailureReporter {
  #last = Number.NEGATIVE_INFINITY;
  #count = 0;

  constructor(
    private readonly warn: (message: string, failures: number) => void,
    private readonly intervalMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one failure; logs when the last report is older than the interval. */
  report(what: string, error: unknown): void {
    this.#count++;
    const now = this.now();
    if (now - this.#last < this.intervalMs) return;
    this.#last = now;
    const count = this.#count;
    this.#count = 0;
    this.warn(`${what}: ${(error as Error)?.message ?? String(error)}`, count);
  }
}
