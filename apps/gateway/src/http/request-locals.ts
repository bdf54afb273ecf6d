import type { Response } from 'express';

/** What the gateway keeps per request in `res.locals` (read by the logger). */
export interface RequestLocals {
  /** `x-request-id`: the client's, when it sent a sane one, else a new UUID. */
  requestId: string;
  /** Aborted when the client disconnects before the response is complete. */
  signal: AbortSignal;
  /** Model id the client asked for, once known. */
  model?: string;
  /** Provider that served the request, once known. */
  provider?: string;
  /** Failure worth logging (status >= 500 or a broken stream). */
  error?: unknown;
}

/** Typed access to {@link RequestLocals}. */
export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}
