import { GatewayError } from '../errors/gateway-error.js';
import type { PlanOutcome } from './plan-types.js';

/** A stream whose first item has been read (so failures before it can still be retried elsewhere). */
export interface PeekedStream<T> {
  first: IteratorResult<T>;
  iterator: AsyncIterator<T>;
}

/**
 * Reads the first item of a stream. Throws what the stream throws (after closing it), so that an upstream that fails
 * or stalls before its first chunk counts as a failed attempt, not as a committed response.
 */
export async function peekStream<T>(stream: AsyncIterable<T>): Promise<PeekedStream<T>> {
  const iterator = stream[Symbol.asyncIterator]();
  try {
    return { first: await iterator.next(), iterator };
  } catch (error) {
    await iterator.return?.().catch(() => {});
    throw error;
  }
}

/**
 * Closes the stream in an attempt's value that will not be used (a hedge loser's answer that arrived anyway): a
 * {@link PeekedStream}, or an object holding one as `peeked`. Anything else is left alone.
 */
export function closePeekedValue(value: unknown): void {
  const peeked =
    (value as { peeked?: PeekedStream<unknown> } | null)?.peeked ?? (value as PeekedStream<unknown> | null);
  if (typeof peeked?.iterator?.return === 'function') void peeked.iterator.return().catch(() => {});
}

/**
 * Yields a peeked stream to the client with an idle timer: if the upstream sends no chunk for `outcome.idleMs` (ms,
 * counted only while waiting on the upstream), the attempt is aborted and the stream throws 504 `upstream_timeout`.
 * Closing the generator early (client gone) closes the upstream stream. Always releases the attempt's timers and
 * in-flight slot at the end, and reports the attempt's end (see {@link idleGuard}; `reportsBreak` false leaves a
 * break's report to the caller).
 */
export async function* guardStream<T>(
  peeked: PeekedStream<T>,
  outcome: PlanOutcome<unknown>,
  reportsBreak = true,
): AsyncGenerator<T> {
  const guard = idleGuard(outcome, reportsBreak);
  try {
    if (peeked.first.done) return;
    yield peeked.first.value;
    for (;;) {
      const next = await guard.next(peeked.iterator);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await guard.close(peeked.iterator);
  }
}

/** The idle timer of {@link guardStream}, for a consumer that reads the peeked iterator in its own loop. */
export interface IdleGuard {
  /**
   * Reads the next item of `iterator` under the idle timer (armed from the second item on). Throws what the iterator
   * throws, or 504 `upstream_timeout` when the timer aborted the attempt.
   */
  next<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T>>;
  /**
   * Stops the timer, closes `iterator` (errors ignored), reports the attempt's end and releases it. Call once, at the
   * end.
   */
  close(iterator: AsyncIterator<unknown>): Promise<void>;
}

/** What {@link IdleGuard.close} returns when it had nothing to wait for. */
const CLOSED: Promise<void> = Promise.resolve();

/**
 * The idle timer of a stream's attempt: one timer for the whole stream, re-armed with refresh() (cheaper than a new
 * timer per chunk). It only fires an abort while the stream is waiting on the upstream; time spent waiting on a slow
 * client does not count.
 * At the end the attempt's observers learn how it ended ({@link PlanOutcome.ended}): `ok` when the stream was read to
 * its end or its reader stopped early, `error` when a read threw or the attempt was aborted (client gone, deadline,
 * stall). With `reportsBreak` false a read that threw is not reported (the attempt is released as broken): the caller
 * reports it once it knows what follows (mid-stream failover). Nothing is added per item: only a failure is noted.
 */
export function idleGuard(outcome: PlanOutcome<unknown>, reportsBreak = true): IdleGuard {
  let waiting = false;
  let timer: NodeJS.Timeout | undefined;
  let broke = false;
  let readFailed = false;
  let failure: unknown;
  const onIdle = () => {
    if (!waiting) return;
    outcome.abort(
      new GatewayError({
        status: 504,
        type: 'server_error',
        code: 'upstream_timeout',
        message: `The upstream stream stalled for ${outcome.idleMs} ms.`,
      }),
    );
  };
  const failed = (error: unknown) => {
    waiting = false;
    broke = readFailed = true;
    failure = outcome.signal.aborted && GatewayError.isInstance(outcome.signal.reason) ? outcome.signal.reason : error;
    throw failure;
  };
  const arrived = <T>(next: IteratorResult<T>) => {
    waiting = false;
    return next;
  };
  return {
    next(iterator) {
      timer ??= setTimeout(onIdle, outcome.idleMs);
      waiting = true;
      timer.refresh();
      return iterator.next().then(arrived, failed);
    },
    // Not an async function: no frame of its own, and one promise only when the iterator's return() gives one.
    close(iterator) {
      clearTimeout(timer);
      if (!broke && outcome.signal.aborted) {
        broke = true;
        failure = outcome.signal.reason;
      }
      const end = () => {
        // A reader that stopped early on an aborted attempt gets no error to act on: reported here in any case.
        if (broke && (reportsBreak || !readFailed)) outcome.ended('error', failure);
        outcome.release(broke);
      };
      let returned: Promise<unknown> | undefined;
      try {
        returned = iterator.return?.();
      } catch {
        returned = undefined;
      }
      if (returned === undefined) {
        end();
        return CLOSED;
      }
      return returned.then(end, end);
    },
  };
}
