import { GatewayError } from '../errors/gateway-error.js';
import type { PlanOutcome } from './execute-plan.js';

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
 * Yields a peeked stream to the client with an idle timer: if the upstream sends no chunk for `outcome.idleMs` (ms,
 * counted only while waiting on the upstream), the attempt is aborted and the stream throws 504 `upstream_timeout`.
 * Closing the generator early (client gone) closes the upstream stream. Always releases the attempt's timers and
 * in-flight slot at the end.
 */
export async function* guardStream<T>(peeked: PeekedStream<T>, outcome: PlanOutcome<unknown>): AsyncGenerator<T> {
  // One timer for the whole stream, re-armed with refresh() (cheaper than a new timer per chunk). It only fires an
  // abort while the stream is waiting on the upstream; time spent waiting on a slow client does not count.
  let waiting = false;
  let timer: NodeJS.Timeout | undefined;
  const onIdle = () => {
    if (!waiting) return;
    outcome.abort(new GatewayError({ status: 504, type: 'server_error', code: 'upstream_timeout', message: `The upstream stream stalled for ${outcome.idleMs} ms.` }));
  };
  try {
    if (peeked.first.done) return;
    yield peeked.first.value;
    timer = setTimeout(onIdle, outcome.idleMs);
    for (;;) {
      waiting = true;
      timer.refresh();
      let next: IteratorResult<T>;
      try {
        next = await peeked.iterator.next();
      } catch (error) {
        throw outcome.signal.aborted && GatewayError.isInstance(outcome.signal.reason) ? outcome.signal.reason : error;
      } finally {
        waiting = false;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
    await peeked.iterator.return?.()?.catch(() => {});
    outcome.release();
  }
}
