import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '@switchyard/core';
import type { RequestHandler, Response } from 'express';
import { locals, onResponseClose } from './request-locals.js';

/** The error sent to requests still running when the shutdown grace period ends (503 `server_shutting_down`). */
export function shuttingDownError(): GatewayError {
  return new GatewayError({
    status: 503,
    type: 'server_error',
    code: 'server_shutting_down',
    message: 'The gateway is shutting down and could not finish this request in time; retry it.',
  });
}

/**
 * The requests being answered, for graceful shutdown. Its {@link middleware} (after `requestContext`) tracks each
 * response until it closes; once {@link drain} has begun it answers new requests on kept-alive connections with 503
 * `server_shutting_down` and `connection: close`.
 */
export class InflightRequests {
  readonly #open = new Map<Response, (reason: unknown) => void>();
  #draining = false;

  /** Requests being answered now. */
  get size(): number {
    return this.#open.size;
  }

  /** Tracks requests (mount after `requestContext`, whose `cancel` aborts a request's signal with a reason). */
  middleware(): RequestHandler {
    return (_req, res, next) => {
      if (this.#draining) {
        res.setHeader('connection', 'close');
        throw shuttingDownError();
      }
      this.#open.set(res, (reason) => locals(res).cancel?.(reason));
      onResponseClose(res, () => this.#open.delete(res));
      next();
    };
  }

  /**
   * Refuses new requests, waits up to `graceMs` (ms) for the running ones to finish, then aborts those left with
   * {@link shuttingDownError} (streams end with one error event) and waits up to `abortWaitMs` (ms) more for them
   * to close. Resolves with how many had to be aborted.
   */
  async drain(graceMs: number, abortWaitMs = 5_000): Promise<number> {
    this.#draining = true;
    if (!(await this.#waitEmpty(graceMs))) {
      const left = [...this.#open.values()];
      const error = shuttingDownError();
      for (const cancel of left) cancel(error);
      await this.#waitEmpty(abortWaitMs);
      return left.length;
    }
    return 0;
  }

  async #waitEmpty(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.#open.size > 0) {
      if (Date.now() >= until) return false;
      await sleep(Math.min(50, Math.max(1, until - Date.now())));
    }
    return true;
  }
}
