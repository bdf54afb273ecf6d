import { type IdleGuard, type PeekedStream, idleGuard } from '../routing/guard-stream.js';
import type { PlanOutcome } from '../routing/execute-plan.js';
import { SSE_DONE } from '../utils/encode-sse.js';
import type { ChunkBatch } from './chunk-batches.js';
import { encodeSSEError } from './to-sse-stream.js';
import type { StreamSummary } from './wrap-chunk-stream.js';

/** Encodes one batch of a chat stream as SSE pieces (text, or the upstream's bytes), noting its chunks. */
export interface SSEBatchEncoder {
  /** The batch's events as `text/event-stream` pieces, in order (may be empty). Throws what noting a chunk throws. */
  encodeBatch(batch: ChunkBatch): (string | Uint8Array)[];
}

/**
 * A stream's SSE pieces (text, or the upstream's bytes): an async iterator that also gives the pieces it already holds
 * at once ({@link SSEPieces.takeReady}).
 */
export interface SSEPieces extends AsyncIterableIterator<string | Uint8Array> {
  /** A piece already made, taken without a promise, or `undefined` when none is held (then call `next()`). */
  takeReady(): string | Uint8Array | undefined;
}

/** What a taken {@link PeekedStream}'s `first` becomes: its first batch is not held for the stream's life. */
const TAKEN: IteratorResult<ChunkBatch> = { done: true, value: undefined };
/** The end of the reader, shared (it holds nothing). */
const END: IteratorResult<string | Uint8Array> = Object.freeze({ done: true, value: undefined });

/** Where a {@link SSETextReader} is: before its first read, reading, or past its last piece's making. */
const FRESH = 0;
const READING = 1;
const ENDED = 2;

/**
 * A peeked batched chat stream as SSE text pieces, one network read at a time: an async iterator written by hand, not
 * an async generator (no generator step, request and awaited `yield` per piece, no generator frame per held stream;
 * `next()` gives a piece already made as one resolved promise, and reads under the attempt's idle timer, `idleGuard`,
 * only when the pieces of the last read are all taken). After the last batch: `data: [DONE]\n\n`; when a read or the
 * encoding fails, one error event (`encodeSSEError`, `secrets` redacted; `onError` sees the failure) instead. However
 * it ends (the end, a failure, or `return()` by a reader that stops early), the upstream is closed, the attempt
 * released (`IdleGuard.close`) and `onEnd` called once with `summary.error`, before the last piece is given; a
 * rejection of `onEnd` rejects that `next()` (or `return()`). Call `next()` once at a time, as `for await` does.
 */
export class SSETextReader implements SSEPieces {
  readonly #peeked: PeekedStream<ChunkBatch>;
  readonly #summary: StreamSummary;
  readonly #encoder: SSEBatchEncoder;
  readonly #onEnd: (failure?: unknown) => void | Promise<void>;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #secrets: readonly string[];
  readonly #guard: IdleGuard;
  #stage = FRESH;
  /** The pieces of the last read not yet given (cleared once all are: a held stream keeps none of its text). */
  #pieces: (string | Uint8Array)[] | undefined = undefined;
  #index = 0;

  constructor(
    peeked: PeekedStream<ChunkBatch>,
    outcome: PlanOutcome<unknown>,
    summary: StreamSummary,
    encoder: SSEBatchEncoder,
    onEnd: (failure?: unknown) => void | Promise<void>,
    onError: ((error: unknown) => void) | undefined,
    secrets: readonly string[],
  ) {
    this.#peeked = peeked;
    this.#summary = summary;
    this.#encoder = encoder;
    this.#onEnd = onEnd;
    this.#onError = onError;
    this.#secrets = secrets;
    this.#guard = idleGuard(outcome);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The next piece: one of the last read's, else that of the next read, else the stream's last event, else the end. */
  next(): Promise<IteratorResult<string | Uint8Array>> {
    const pieces = this.#pieces;
    if (pieces !== undefined) return Promise.resolve(this.#give(pieces));
    if (this.#stage === READING) return this.#guard.next(this.#peeked.iterator).then(this.#onRead, this.#onFail);
    if (this.#stage === ENDED) return Promise.resolve(END);
    this.#stage = READING;
    const first = this.#peeked.first;
    this.#peeked.first = TAKEN;
    const result = this.#onRead(first);
    return result instanceof Promise ? result : Promise.resolve(result);
  }

  /** Stops early (the client went away): the upstream closed, the attempt released and `onEnd` called, once. */
  return(): Promise<IteratorResult<string | Uint8Array>> {
    this.#pieces = undefined;
    if (this.#stage === ENDED) return Promise.resolve(END);
    this.#stage = ENDED;
    const summary = this.#summary;
    return this.#guard
      .close(this.#peeked.iterator)
      .then(undefined, (error: unknown) => {
        summary.error = error;
      })
      .then(() => this.#onEnd(summary.error))
      .then(() => END);
  }

  /**
   * A piece of the last read not yet given, taken now (no promise, no turn of the microtask queue), or `undefined` when
   * none is held (then `next()` reads on, or ends the stream). Mixes with `next()`: each piece is given once, in order.
   * The gateway's SSE writer takes a read's pieces so after the first.
   */
  takeReady(): string | Uint8Array | undefined {
    const pieces = this.#pieces;
    return pieces === undefined ? undefined : this.#take(pieces);
  }

  /** The piece at `#index` of `pieces` as an iterator result. */
  #give(pieces: (string | Uint8Array)[]): IteratorResult<string | Uint8Array> {
    return { done: false, value: this.#take(pieces) };
  }

  /** The piece at `#index` of `pieces`, letting go of them after the last. */
  #take(pieces: (string | Uint8Array)[]): string | Uint8Array {
    const value = pieces[this.#index++]!;
    if (this.#index === pieces.length) this.#pieces = undefined;
    return value;
  }

  /** A read's batch as pieces (the first given now), the next read when it made none, or the end after the last. */
  readonly #onRead = (
    next: IteratorResult<ChunkBatch>,
  ): IteratorResult<string | Uint8Array> | Promise<IteratorResult<string | Uint8Array>> => {
    if (this.#stage === ENDED) return END;
    if (next.done) {
      this.#summary.completed = true;
      return this.#end(false, undefined);
    }
    let pieces: (string | Uint8Array)[];
    try {
      pieces = this.#encoder.encodeBatch(next.value);
    } catch (error) {
      return this.#end(true, error);
    }
    if (pieces.length === 0) return this.next();
    this.#index = 0;
    this.#pieces = pieces;
    return this.#give(pieces);
  };

  readonly #onFail = (error: unknown): Promise<IteratorResult<string | Uint8Array>> => this.#end(true, error);

  /**
   * Settles the stream once: the upstream closed and the attempt released, then `onEnd`, then the last event (`[DONE]`,
   * or the error event of `failure`, or of what closing threw).
   */
  #end(failed: boolean, failure: unknown): Promise<IteratorResult<string | Uint8Array>> {
    this.#stage = ENDED;
    return this.#guard.close(this.#peeked.iterator).then(
      () => this.#last(failed, failure),
      (error: unknown) => this.#last(true, error),
    );
  }

  /** After the close: `onEnd` with the summary's error (`failure` when failed), then the stream's last event. */
  async #last(failed: boolean, failure: unknown): Promise<IteratorResult<string | Uint8Array>> {
    const summary = this.#summary;
    if (failed) summary.error = failure;
    await this.#onEnd(summary.error);
    if (!failed) return { done: false, value: SSE_DONE };
    this.#onError?.(failure);
    return { done: false, value: encodeSSEError(failure, this.#secrets) };
  }
}
