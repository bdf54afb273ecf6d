import {
  type ChatCompletionChunk,
  type ChunkBatch,
  type SSEBatch,
  type ScannedChunk,
  type ServerSentEvent,
  SSEBatchReader,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { ChunkTemplate } from './chunk-template.js';
import { DATA_FIELD_BYTES, PlainRun, utf8Range } from './plain-run.js';
import { readChunkEvent, scanError } from './read-chunk-event.js';

/** An upstream chat stream's body, as undici gives it. */
type StreamBody = AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void };

/** The end of a scan, shared (it holds nothing). */
const END: IteratorResult<ChunkBatch> = Object.freeze({ done: true, value: undefined });

/** Where a {@link ChunkBatchScanner} is: before its first read, scanning, past `[DONE]` (its last batch given), ended. */
const FRESH = 0;
const SCANNING = 1;
const AT_DONE = 2;
const ENDED = 3;

/**
 * `scanOpenAIChunkBatches`' iterator, written by hand rather than as an async generator (no generator object, step,
 * request and awaited `yield` per batch; one resolved promise per batch made from a read already in, one promise per
 * network read otherwise). Each `next()` gives the next {@link ChunkBatch} of the upstream's stream: the events one read
 * completed, the stream's first chunk alone ahead of the rest of its read. A plain read (core's `SSEBatch` with bytes)
 * is scanned on its bytes when a `ChunkTemplate` is used (`passPlain` without `fix`): the plain text deltas that follow
 * one another come as one {@link PlainRun}. Ends at `[DONE]` (the rest of the body drained at the next call), or at the
 * body's end (502 `upstream_invalid_response` unless a finish_reason was seen); a bad or error event rejects the call
 * after the batch of the events before it. However it ends, the reads are closed first; a failure, or `return()` before
 * `[DONE]`, then destroys the body. `return()` while a read is pending waits for it, as a generator's would. Call
 * `next()` once at a time, as `for await` does.
 */
export class ChunkBatchScanner implements AsyncIterableIterator<ChunkBatch> {
  readonly #provider: string;
  readonly #body: StreamBody;
  readonly #signal: AbortSignal;
  readonly #secrets: readonly (string | undefined)[];
  readonly #fix: ((chunk: ChatCompletionChunk) => ChatCompletionChunk) | undefined;
  readonly #template: ChunkTemplate | undefined;
  #reads: SSEBatchReader | undefined = undefined;
  #stage = FRESH;
  #sawFinishReason = false;
  #first = true;
  /** The read being scanned, and the index of its next event (undefined between reads: a held stream keeps none). */
  #read: SSEBatch | undefined = undefined;
  #index = 0;
  /** True while a network read is awaited; `#pending` is the `next()` that awaits it. */
  #reading = false;
  #pending: Promise<IteratorResult<ChunkBatch>> | undefined = undefined;
  /** What an event threw after the batch before it was given: thrown at the next call. */
  #failing = false;
  #error: unknown = undefined;

  constructor(
    provider: string,
    body: StreamBody,
    signal: AbortSignal,
    secrets: readonly (string | undefined)[],
    fix: ((chunk: ChatCompletionChunk) => ChatCompletionChunk) | undefined,
    passPlain: boolean,
  ) {
    this.#provider = provider;
    this.#body = body;
    this.#signal = signal;
    this.#secrets = secrets;
    this.#fix = fix;
    this.#template = passPlain && !fix ? new ChunkTemplate() : undefined;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The next batch: the rest of the read being scanned, else of the next read, else the end. */
  next(): Promise<IteratorResult<ChunkBatch>> {
    const stage = this.#stage;
    if (stage === ENDED) return Promise.resolve(END);
    if (stage === AT_DONE) return this.#closeAtDone();
    if (this.#failing) {
      const error = this.#error;
      this.#failing = false;
      this.#error = undefined;
      return this.#fail(error);
    }
    if (stage === FRESH) {
      this.#stage = SCANNING;
      try {
        this.#reads = new SSEBatchReader(this.#body, {
          drainOnReturn: true,
          plainAsBytes: this.#template !== undefined,
        });
      } catch (error) {
        return this.#fail(error);
      }
    }
    const result = this.#read === undefined ? this.#nextRead() : this.#step();
    if (result instanceof Promise) {
      this.#pending = result;
      return result;
    }
    return Promise.resolve(result);
  }

  /**
   * Stops early (the consumer is done): the reads closed, then the body destroyed unless `[DONE]` was seen. Before
   * the first `next()`, nothing to close (as a generator that never started).
   */
  return(): Promise<IteratorResult<ChunkBatch>> {
    if (this.#reading) {
      const again = (): Promise<IteratorResult<ChunkBatch>> => this.return();
      return this.#pending!.then(again, again);
    }
    const stage = this.#stage;
    this.#stage = ENDED;
    if (stage === FRESH || stage === ENDED) return Promise.resolve(END);
    if (stage === AT_DONE) return this.#reads!.close().then(() => END);
    this.#read = this.#error = undefined;
    this.#failing = false;
    return this.#reads!.close().then(() => {
      this.#body.destroy?.();
      return END;
    });
  }

  /** The next network read's first batch (or the next read's, or the end), as one promise. */
  #nextRead(): Promise<IteratorResult<ChunkBatch>> {
    this.#reading = true;
    return this.#reads!.next().then(this.#onRead, this.#onFail);
  }

  readonly #onRead = (read: SSEBatch | undefined): IteratorResult<ChunkBatch> | Promise<IteratorResult<ChunkBatch>> => {
    this.#reading = false;
    if (read === undefined) return this.#endOfBody();
    this.#read = read;
    this.#index = 0;
    return this.#step();
  };

  readonly #onFail = (error: unknown): Promise<IteratorResult<ChunkBatch>> => {
    this.#reading = false;
    return this.#fail(error);
  };

  /** {@link #scan}, a failure of which fails the stream. */
  #step(): IteratorResult<ChunkBatch> | Promise<IteratorResult<ChunkBatch>> {
    try {
      return this.#scan();
    } catch (error) {
      this.#read = undefined;
      return this.#fail(error);
    }
  }

  /**
   * The next batch of the read being scanned, from `#index`: up to and including the stream's first chunk, up to
   * `[DONE]`, up to a bad event (thrown at the next call) or to the end of the read; the next read's when this one
   * holds no more chunks.
   */
  #scan(): IteratorResult<ChunkBatch> | Promise<IteratorResult<ChunkBatch>> {
    const sse = this.#read!;
    const { events, bytes, ends } = sse;
    const template = this.#template;
    const inBytes = events.length === 0 && ends !== undefined;
    const count = inBytes ? ends!.length : events.length;
    const batch: ChunkBatch = [];
    // The run of plain deltas the last event joined, and that event's index in the read.
    let run: PlainRun | undefined;
    let last = -2;
    for (let i = this.#index; i < count; i++) {
      const start = inBytes ? (ends![i - 1] ?? 0) + DATA_FIELD_BYTES : 0;
      const end = inBytes ? ends![i]! - 2 : 0;
      const event = inBytes ? undefined : events[i]!;
      if (event ? event.data === '[DONE]' : isDone(bytes!, start, end)) {
        this.#read = undefined;
        this.#stage = AT_DONE;
        return batch.length > 0 ? { done: false, value: batch } : this.#closeAtDone();
      }
      if (!event && template?.matchBytes(bytes!, start, end)) {
        // A plain delta joins the run of the one just before it, or starts a run.
        if (run !== undefined && last === i - 1) {
          run.count++;
          run.end = ends![i]!;
        } else batch.push((run = new PlainRun(bytes!, ends!, i, template.prefixBytes)));
        last = i;
        continue;
      }
      const item = template && event && event.event === undefined ? textDelta(template, event.data) : undefined;
      if (item) {
        batch.push(item);
        continue;
      }
      const read = event ?? { id: undefined, event: undefined, data: utf8Range(bytes!, start, end) };
      let chunk: ChatCompletionChunk | undefined;
      try {
        chunk = readChunkEvent(this.#provider, read, this.#secrets, this.#fix);
      } catch (error) {
        // The chunks before a bad or error event still reach the client, then the stream fails.
        this.#read = undefined;
        if (batch.length === 0) return this.#fail(error);
        this.#failing = true;
        this.#error = error;
        return { done: false, value: batch };
      }
      if (!chunk) continue;
      if (!this.#sawFinishReason && hasFinishReason(chunk)) this.#sawFinishReason = true;
      template?.learn(chunk, read.data);
      batch.push({ text: read.data, chunk });
      // The stream's first chunk goes out ahead of the rest of its read (the client's time to first token).
      if (this.#first) {
        this.#first = false;
        this.#index = i + 1;
        return { done: false, value: batch };
      }
    }
    // The read is this scanner's now: emptied, it holds no text or bytes while the next one is awaited.
    this.#read = undefined;
    sse.events = NO_EVENTS;
    if (sse.bytes !== undefined) sse.bytes = sse.ends = undefined;
    return batch.length > 0 ? { done: false, value: batch } : this.#nextRead();
  }

  /** Past `[DONE]`: the reads closed (the rest of the body drained), then the end. */
  #closeAtDone(): Promise<IteratorResult<ChunkBatch>> {
    this.#stage = ENDED;
    return this.#reads!.close().then(() => END);
  }

  /** The body ended without `[DONE]`: complete only when a finish_reason was seen, else 502. */
  #endOfBody(): Promise<IteratorResult<ChunkBatch>> {
    this.#stage = ENDED;
    return this.#reads!.close().then(() => {
      if (this.#sawFinishReason) return END;
      throw upstreamInvalidResponseError(this.#provider, 'the stream ended before data: [DONE].');
    });
  }

  /** Fails the stream with `error`: the reads closed, then the body destroyed, then `error` mapped and thrown. */
  #fail(error: unknown): Promise<IteratorResult<ChunkBatch>> {
    this.#stage = ENDED;
    const closed = this.#reads?.close() ?? Promise.resolve();
    return closed.then(() => {
      const failure = scanError(this.#provider, error, this.#signal, this.#secrets);
      this.#body.destroy?.();
      throw failure;
    });
  }
}

/** The events of a read once it has been scanned. */
const NO_EVENTS: ServerSentEvent[] = [];

/** `[DONE]`, byte by byte. */
const DONE = [91, 68, 79, 78, 69, 93];

/** True when `bytes[start, end)`, an event's data, is `[DONE]`. */
function isDone(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== DONE.length) return false;
  for (let i = 0; i < DONE.length; i++) if (bytes[start + i] !== DONE[i]) return false;
  return true;
}

/** True when a choice of `chunk` has a finish_reason. */
function hasFinishReason(chunk: ChatCompletionChunk): boolean {
  const choices = chunk.choices;
  if (choices === undefined) return false;
  for (let i = 0; i < choices.length; i++) if (choices[i]!.finish_reason) return true;
  return false;
}

/** The plain text delta `data` is, as a scanned chunk (see {@link ChunkTemplate.match}), else undefined. */
function textDelta(template: ChunkTemplate, data: string): ScannedChunk | undefined {
  const content = template.match(data);
  return content === undefined ? undefined : { text: data, content };
}
