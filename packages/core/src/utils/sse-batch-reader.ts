import type { Readable } from 'node:stream';
import { DRAIN_LIMITS } from './drain-limits.js';
import { type ParseSSEOptions, type SSEBatch, sseSplitter } from './sse-splitter.js';

/** What {@link SSEBatchReader.close} returns when it has nothing to wait for. */
const DONE: Promise<void> = Promise.resolve();

/** A batch as the splitter gives it: with the error to throw after its events. */
type SplitBatch = SSEBatch & { error?: Error };

/**
 * `parseSSEBatches` as one object instead of a generator, for a consumer that reads in its own loop (a chat stream's
 * scan): {@link next} gives the events each network read of `body` completed (an {@link SSEBatch}; reads that complete
 * none are passed over), `undefined` once the body has ended, and rejects with what `parseSSEBatches` throws (the
 * batch before stray text is given first, the error at the next call). No generator frame or step per read: one
 * promise per read, chained on the body's. Call {@link close} once, however the reading ends (`for await` would call
 * `return()`): it closes `body`'s iterator when it is owed that, and with `drainOnReturn` drains the rest of a body that
 * neither ended nor failed (see `ParseSSEOptions`).
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export class SSEBatchReader {
  readonly #take: (chunk: Uint8Array | string | undefined) => SplitBatch;
  readonly #readable: Partial<Readable> | undefined;
  readonly #reads: AsyncIterator<Uint8Array | string>;
  /** Thrown at the next call: it came in the same read as the events given before it. */
  #error: Error | undefined = undefined;
  /** True once the body's iterator ended or threw: it is owed no `return()`. */
  #exhausted = false;
  /** True once the body ended (its last events were given). */
  #ended = false;
  /** True once reading ended or failed: nothing is left to drain. */
  #settled = false;

  constructor(body: AsyncIterable<Uint8Array | string>, options: ParseSSEOptions = {}) {
    this.#take = sseSplitter(body, options);
    const readable = options.drainOnReturn ? (body as Partial<Readable>) : undefined;
    this.#readable = readable;
    this.#reads = (readable?.iterator ? readable.iterator({ destroyOnReturn: false }) : body)[Symbol.asyncIterator]();
  }

  /** The events of the next read that completed any, or `undefined` at the end of the body. */
  next(): Promise<SSEBatch | undefined> {
    const error = this.#error;
    if (error !== undefined) {
      this.#error = undefined;
      this.#settled = true;
      return Promise.reject(error);
    }
    if (this.#ended) {
      this.#settled = true;
      return Promise.resolve(undefined);
    }
    return this.#reads.next().then(this.#onRead, this.#onFail);
  }

  /**
   * Ends the reading (call once, also after an error): closes the body's iterator unless it ended or threw, and when
   * the reading stopped early without an error, drains the rest of a `drainOnReturn` body within `DRAIN_LIMITS` once
   * the iterator is closed. Never rejects. Not an async function: no frame or promise of its own when nothing is owed.
   */
  close(): Promise<void> {
    if (this.#exhausted) {
      this.#drain();
      return DONE;
    }
    this.#exhausted = true;
    const returned = this.#reads.return?.();
    if (returned === undefined) {
      this.#drain();
      return DONE;
    }
    // Made here, at the end, not per reader: a held stream keeps no closure for it.
    const drain = (): void => this.#drain();
    return returned.then(drain, drain);
  }

  /** When the reading stopped early without an error: the rest of a `drainOnReturn` body read and discarded. */
  #drain(): void {
    const readable = this.#readable;
    if (this.#settled || readable === undefined || readable.destroyed) return;
    this.#settled = true;
    // Returned early (the consumer saw the end marker): read the rest and discard it, within bounds.
    if (readable.iterator) void drainRest(readable as Readable);
    else readable.resume?.(); // an UpstreamBodyStream, which drains within DRAIN_LIMITS itself
  }

  readonly #onRead = (
    read: IteratorResult<Uint8Array | string>,
  ): SSEBatch | undefined | Promise<SSEBatch | undefined> => {
    if (read.done) {
      this.#exhausted = this.#ended = true;
      return this.#give(this.#take(undefined), true);
    }
    return this.#give(this.#take(read.value), false);
  };

  readonly #onFail = (error: unknown): never => {
    this.#exhausted = this.#settled = true;
    throw error;
  };

  /** `batch` when it holds events (its error kept for the next call), else its error, the end, or the next read. */
  #give(batch: SplitBatch, last: boolean): SSEBatch | undefined | Promise<SSEBatch | undefined> {
    const error = batch.error;
    const full = batch.events.length > 0 || batch.ends !== undefined;
    if (error !== undefined) {
      if (!full) {
        this.#settled = true;
        throw error;
      }
      this.#error = error;
      batch.error = undefined;
      return batch;
    }
    if (full) return batch;
    if (last) {
      this.#settled = true;
      return undefined;
    }
    return this.next();
  }
}

/** Reads and discards the rest of `readable` within {@link DRAIN_LIMITS}; a late error is the pool's concern. */
async function drainRest(readable: Readable): Promise<void> {
  let bytes = 0;
  const timer = setTimeout(() => readable.destroy(), DRAIN_LIMITS.maxMs);
  timer.unref();
  try {
    for await (const chunk of readable.iterator({ destroyOnReturn: false })) {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Uint8Array).byteLength;
      if (bytes > DRAIN_LIMITS.maxBytes) {
        readable.destroy();
        break;
      }
    }
  } catch {
    // A late error is the connection pool's concern.
  } finally {
    clearTimeout(timer);
  }
}
