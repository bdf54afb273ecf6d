import type { GatewayCallResult, GatewayError } from '@switchyard/core';
import type { Response } from 'express';

/** What the gateway keeps per request in `res.locals` (read by the logger). */
export interface RequestLocals {
  /** `x-request-id`: the client's, when it sent a sane one, else a new UUID. */
  requestId: string;
  /** Aborted when the client disconnects before the response is complete, or by {@link cancel}. */
  signal: AbortSignal;
  /** Aborts `signal` with `reason` (graceful shutdown past its grace period): the call fails with that reason. */
  cancel?: (reason: unknown) => void;
  /** Model id the client asked for, once known. */
  model?: string;
  /** Provider that served the request, once known. */
  provider?: string;
  /** Who calls, as `gateway.authenticate()` returned it (with accounts: the key's principal). */
  caller?: unknown;
  /** Failure worth logging (status >= 500 or a broken stream). */
  error?: unknown;
  /** The error the client was answered with (any status), as sent. */
  failure?: GatewayError;
  /** The gateway call's result, once the upstream answered (for streams: its first chunk is in). */
  result?: GatewayCallResult<unknown>;
  /** Called once the response has closed; see {@link onResponseClose}. */
  closeHooks?: (() => void)[];
  /** When `result` arrived, `performance.now()` ms. */
  resultAt?: number;
}

/**
 * Runs `hook` once the response has closed (ended or aborted). Hooks share the one `close` listener of
 * `requestContext`, so that a request does not collect a listener per feature (metrics, traces, shutdown).
 */
export function onResponseClose(res: Response, hook: () => void): void {
  // A response without Express's `locals` (a bare stand-in) gets its own listener, like one without requestContext.
  const hooks = (res.locals as Partial<RequestLocals> | undefined)?.closeHooks;
  if (hooks) hooks.push(hook);
  else res.once('close', hook);
}

/** Typed access to {@link RequestLocals}. */
export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}
