import type { CompletionUsage } from '../schemas/completion-usage.js';
import type { RouteTarget } from '../model/route-plan.js';
import { type Metered, abortedStatus, statusOf } from './call-metering.js';
import type { StreamSummary } from './wrap-chunk-stream.js';

/** What {@link settleStream} needs to book a stream once it has ended. */
export interface StreamSettlement {
  /** The admitted call being metered, when accounting is on (undefined: nothing is booked). */
  metered?: Metered;
  /** The deployment that served the stream, or a function read when it ends (mid-stream failover may change it). */
  target: RouteTarget | (() => RouteTarget);
  /** True when the stream moved to another deployment mid-way (read when it ends). */
  failedOver?: () => boolean;
  /**
   * The client's abort signal: a stream closed after it fired is booked as 499, or with the status of the gateway's
   * own abort reason (503 when cut at shutdown).
   */
  signal?: AbortSignal;
  /** Time to first byte (ms since `metered.startedAt`), measured when the stream was accepted. */
  ttfbMs?: number;
  /**
   * Reads what the stream reported once it ended (usage in tokens, text for token estimates, whether it completed,
   * what it threw). Called once, in the `finally` of the returned generator.
   */
  summary: () => StreamSummary;
}

/**
 * Wraps an accepted stream so that, however it ends (completed, failed, closed early by the client), the call is
 * settled once: booked with status 200 when the stream completed, 499 when the client went away or it was closed
 * without an error, the abort reason's status when the gateway cut it (503 `server_shutting_down` at shutdown), else
 * the error's status; and `finished` resolves with the stream's summary. Errors thrown by
 * `stream` are re-thrown to the consumer unchanged.
 * Returns the wrapped stream and the `finished` promise (never rejects).
 */
export function settleStream<T>(
  stream: AsyncIterable<T>,
  settlement: StreamSettlement,
): { stream: AsyncGenerator<T>; finished: Promise<StreamSummary> } {
  const { settle, finished } = streamSettler(settlement);
  const settled = (async function* () {
    let failure: unknown;
    try {
      yield* stream;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      await settle(failure);
    }
  })();
  return { stream: settled, finished };
}

/**
 * The settlement of {@link settleStream} without a wrapping generator, for a stream that calls `settle` itself once
 * it has ended, however it ended (`failure`: what it threw, if it threw; see `wrapChunkStream`'s `onEnd`): one
 * generator fewer per chunk. `settle` books the call, then resolves (and resolves `finished`) once what it booked in the
 * limits is written (`CallTicket.settled`), so that the stream ends after its reservation is settled; only its first
 * call counts (later calls resolve at once). Never rejects.
 */
export function streamSettler(settlement: StreamSettlement): {
  settle: (failure?: unknown) => Promise<void>;
  finished: Promise<StreamSummary>;
} {
  let finish!: (summary: StreamSummary) => void;
  const finished = new Promise<StreamSummary>((resolve) => (finish = resolve));
  const { metered, signal, ttfbMs } = settlement;
  let settled = false;
  const settle = async (failure?: unknown) => {
    if (settled) return;
    settled = true;
    const summary = settlement.summary();
    if (failure !== undefined && summary.error === undefined) summary.error = failure;
    if (metered) {
      const status = summary.completed
        ? 200
        : signal?.aborted
          ? abortedStatus(signal)
          : summary.error === undefined
            ? 499
            : statusOf(summary.error);
      metered.ticket.settle({
        status,
        target: typeof settlement.target === 'function' ? settlement.target() : settlement.target,
        usage: summary.usage as CompletionUsage | undefined,
        completionText: summary.text,
        ...(summary.images !== undefined && { images: summary.images }),
        attempts: metered.attempts,
        latencyMs: performance.now() - metered.startedAt,
        ttfbMs,
        stream: true,
        ...(settlement.failedOver?.() && { streamFailover: true }),
      });
      await metered.ticket.settled?.();
    }
    finish(summary);
  };
  return { settle, finished };
}
