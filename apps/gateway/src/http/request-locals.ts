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
  /** Failure worth logging (status >= 500 or a broken stream). */
  error?: unknown;
  /** The error the client was answered with (any status), as sent. */
  failure?: GatewayError;
  /** The gateway call's result, once the upstream answered (for streams: its first chunk is in). */
  result?: GatewayCallResult<unknown>;
  /** When `result` arrived, `performance.now()` ms. */
  resultAt?: number;
}

/** Typed access to {@link RequestLocals}. */
export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}
