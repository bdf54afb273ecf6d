import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors/gateway-error.js';
import type { AttemptReport, CallAccounting, CallOperation, CallTicket } from '../accounting/call-accounting.js';
import { ADMITTING, BookedCallOptions } from './booked-call-options.js';
import type { GatewayCallOptions } from './gateway-options.js';

/** An admitted call being metered: its ticket, attempts so far and timings (ms, `performance.now()`). */
export interface Metered {
  ticket: CallTicket;
  attempts: AttemptReport[];
  startedAt: number;
  stream: boolean;
}

/** The HTTP status a failed call is booked with: a GatewayError's own, else 500. */
export function statusOf(error: unknown): number {
  return GatewayError.isInstance(error) ? error.status : 500;
}

/**
 * The HTTP status a call whose signal was aborted is booked with: the abort reason's own when the gateway aborted it
 * with a GatewayError (a stream cut at shutdown: 503 `server_shutting_down`, what the client was sent), else 499 (the
 * client went away).
 */
export function abortedStatus(signal: AbortSignal): number {
  return GatewayError.isInstance(signal.reason) ? signal.reason.status : 499;
}

/**
 * Runs one call so that, under `accounting`, a call refused before admission (invalid body 400, unknown model 404,
 * unsupported operation 400, client gone 499) is still booked with its status. Calls that reached admission are booked
 * there; what their settlement wrote in the limits is awaited (`CallTicket.settled`) before the call resolves or
 * throws, so that the client's next call finds the reservation settled. Re-throws what `run` throws.
 */
export async function bookRefusal<T>(
  accounting: CallAccounting | undefined,
  body: unknown,
  options: GatewayCallOptions,
  run: (options: GatewayCallOptions) => Promise<T>,
): Promise<T> {
  if (!accounting) return run(options);
  const booking = new BookedCallOptions(options, options.requestId ?? randomUUID());
  try {
    const result = await run(booking);
    await booking[ADMITTING].ticket?.settled?.();
    return result;
  } catch (error) {
    await booking[ADMITTING].ticket?.settled?.();
    if (!booking[ADMITTING].started) {
      const model = (body as { model?: unknown } | null)?.model;
      accounting.refuse?.({
        caller: options.caller,
        model: typeof model === 'string' ? model : '',
        requestId: booking.requestId,
        stream: (body as { stream?: unknown } | null)?.stream === true,
        status: options.signal?.aborted ? abortedStatus(options.signal) : statusOf(error),
        ...(options.labels && { labels: options.labels }),
      });
    }
    throw error;
  }
}

/** Operations whose `stream: true` calls are metered as streams (settled when the stream ends). */
const STREAMING_OPERATIONS: ReadonlySet<CallOperation> = new Set([
  'chatCompletions',
  'completions',
  'imageEdits',
  'anthropicMessages',
  'openaiResponses',
]);

/** Whether a call of `operation` with this `request` is metered as a stream: `stream: true` on a streaming operation. */
export function isMeteredStream(operation: CallOperation, request: Record<string, unknown>): boolean {
  return STREAMING_OPERATIONS.has(operation) && request.stream === true;
}
