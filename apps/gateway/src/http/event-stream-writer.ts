import { GatewayError, type SSEPieces } from '@switchyard/core';
import type { Response } from 'express';
import { locals, onResponseClose } from './request-locals.js';

/** Largest batch of ready events written at once, characters or bytes (written at once beyond it, so back-pressure applies). */
const MAX_BATCH_CHARS = 64 * 1024;

/** Options of {@link EventStreamWriter} (and `sendEventStream` / `sendSSE`). */
export interface SSEOptions {
  /** Redacted from every field of a mid-stream error event (gateway and upstream keys); `sendSSE` only. */
  secrets?: readonly string[];
  /** A `: keep-alive` comment is sent after this long without any write, ms. Default 15,000 (`server.stream_keepalive_ms`). */
  keepAliveMs?: number;
  /**
   * A client that reads nothing for this long while the gateway waits to write is disconnected, ms. Default 60,000
   * (`server.client_write_timeout_ms`).
   */
  writeTimeoutMs?: number;
}

/**
 * Where a response keeps its writer: a property of the response itself. Not a `WeakMap` entry: V8's scavenger treats
 * the values of a `WeakMap` as strong, so an entry whose value (the writer) reaches its key (the response) kept every
 * streamed call alive across scavenges until the next mark-compact (see docs/performance-log.md, session 18).
 */
const WRITER = Symbol('switchyard.eventStreamWriter');
type WithWriter = { [WRITER]?: EventStreamWriter };

/**
 * Writes one `text/event-stream` response. {@link open} sends status 200 and the SSE headers at once and starts the
 * keep-alive: while nothing is sent for `keepAliveMs`, a `: keep-alive` comment goes out, so proxies keep the
 * connection of a model that thinks for minutes ({@link openWhenIdle} does so for a call whose first event is late).
 * {@link pipe} writes events as they arrive (the headers with the first ones, the end with the last; events ready at
 * the same time share one socket write) and respects back-pressure: when a write is refused, reading from the source
 * pauses until the socket drains, with one `drain`/`close` listener pair that is removed as soon as either fires (never
 * a listener per slow write); a client that reads nothing for `writeTimeoutMs` is disconnected (logged as 408
 * `client_write_timeout`), which stops the source. One writer per response ({@link EventStreamWriter.of}).
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#authoring-notes
 */
export class EventStreamWriter {
  readonly #res: Response;
  readonly #keepAliveMs: number;
  readonly #writeTimeoutMs: number;
  #opened = false;
  /**
   * The stream's one timer: before the stream opens, {@link openWhenIdle}'s (it opens the stream); after, the
   * keep-alive, re-armed by every write and by itself. One timer and one close hook per stream, not two.
   */
  #timer?: NodeJS.Timeout;
  /** What {@link openWhenIdle}'s timer runs before it opens the stream. */
  #beforeOpen?: () => void;
  #draining?: Promise<void>;
  /** Encoded events ready to go, as one string. */
  #batch = '';
  /** When some of the ready events are bytes: all of them in order but for `#batch`, which goes last. */
  #parts?: (string | Uint8Array)[];
  /** Size of `#parts`: characters of its text and bytes of its bytes (for `MAX_BATCH_CHARS`). */
  #partsLength = 0;
  #scheduled = false;
  #wroteEvents = false;

  private constructor(res: Response, options: SSEOptions) {
    this.#res = res;
    this.#keepAliveMs = options.keepAliveMs ?? 15_000;
    this.#writeTimeoutMs = options.writeTimeoutMs ?? 60_000;
  }

  /** The writer of `res`: the one made earlier for it (headers may be out already), else a new one with `options`. */
  static of(res: Response, options: SSEOptions = {}): EventStreamWriter {
    const holder = res as WithWriter;
    return (holder[WRITER] ??= new EventStreamWriter(res, options));
  }

  /** Whether the status line and headers were sent. */
  get opened(): boolean {
    return this.#opened;
  }

  /**
   * Opens the stream once nothing else has been sent for `keepAliveMs`: then `beforeOpen` runs (to set headers), status
   * 200 and the headers go out with a first `: keep-alive` comment, and the keep-alive continues. An earlier
   * {@link open} or {@link pipe} (the first event is ready) or {@link cancel} (the call failed) makes it moot.
   */
  openWhenIdle(beforeOpen: () => void): void {
    if (this.#opened || this.#timer || this.#res.destroyed) return;
    this.#beforeOpen = beforeOpen;
    this.#startTimer();
  }

  /** Forgets a pending {@link openWhenIdle} (the stream will not be opened by it). */
  cancel(): void {
    this.#beforeOpen = undefined;
    if (this.#opened) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Arms the stream's timer, stopped when the response closes. */
  #startTimer(): void {
    this.#timer = setTimeout(this.#onTimer, this.#keepAliveMs);
    onResponseClose(this.#res, this.#stopTimer);
  }

  readonly #stopTimer = (): void => {
    clearTimeout(this.#timer);
  };

  /** Nothing was sent for `keepAliveMs`: opens the stream if it is not open, and sends a `: keep-alive` comment. */
  readonly #onTimer = (): void => {
    const res = this.#res;
    if (res.destroyed) return;
    if (!this.#opened) {
      const beforeOpen = this.#beforeOpen;
      this.#beforeOpen = undefined;
      beforeOpen?.();
      this.open();
      this.#write(': keep-alive\n\n');
    } else if (!this.#draining) this.#write(': keep-alive\n\n');
    // Re-armed as setInterval would (a write just refreshed it when it sent the comment).
    this.#timer?.refresh();
  };

  /** Sends status 200 and the SSE headers (with any set on the response before) and starts the keep-alive. Idempotent. */
  open(): void {
    this.#open(true);
  }

  /** {@link open}; with `flush` false the headers go out with the first write instead (one socket write fewer). */
  #open(flush: boolean): void {
    // A pending openWhenIdle is moot; its timer is kept, to become the keep-alive.
    this.#beforeOpen = undefined;
    if (this.#opened || this.#res.destroyed) return;
    this.#opened = true;
    const res = this.#res;
    res.status(200);
    res.set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    if (flush) res.flushHeaders();
    // openWhenIdle's timer, when there is one, becomes the keep-alive.
    if (this.#timer) this.#timer.refresh();
    else this.#startTimer();
  }

  /**
   * Opens the stream if needed, writes every event of `events` (already encoded, `data: …\n\n`, as text or as UTF-8
   * bytes, which are written as they are) and ends the response. When the client disconnects, iteration stops, which
   * closes the source. The source must end a failed stream with its own error event (it should not throw).
   */
  async pipe(events: AsyncIterable<string | Uint8Array>): Promise<void> {
    // The headers go out with the first events (or alone, once what is ready now has been read: see #flush).
    this.#open(false);
    this.#schedule();
    // Read by hand, not with `for await`: a suspended async function keeps the values of all its registers, so the
    // last event is cleared before the next is awaited (a held stream keeps none of its text or bytes).
    // A source that holds pieces already made (core's `SSETextReader`: the rest of a network read) gives them at once:
    // no promise and no turn of the microtask queue per piece.
    const source: AsyncIterator<string | Uint8Array> & Partial<Pick<SSEPieces, 'takeReady'>> =
      events[Symbol.asyncIterator]();
    const ready = typeof source.takeReady === 'function';
    let exhausted = false;
    let next: IteratorResult<string | Uint8Array> | undefined;
    let event: string | Uint8Array | undefined;
    try {
      for (;;) {
        try {
          next = await source.next();
        } catch (error) {
          exhausted = true;
          throw error;
        }
        if (next.done) {
          exhausted = true;
          break;
        }
        event = next.value;
        next = undefined;
        while (event !== undefined && !this.#res.destroyed) {
          this.#add(event);
          event = undefined;
          if (this.#draining) await this.#draining;
          if (ready && !this.#res.destroyed) event = source.takeReady!();
        }
        if (this.#res.destroyed) break;
      }
      // What is still pending goes out with the end of the response (headers, events and end in one write at best).
      if (this.#parts && !this.#res.destroyed) {
        // The socket corked: the parts and the end leave in one socket write (end() uncorks it fully).
        this.#res.socket?.cork();
        this.#flush();
      }
      const rest = this.#batch;
      this.#batch = '';
      if (rest !== '' && !this.#res.destroyed) this.#timer?.refresh();
      if (!this.#res.destroyed) this.#res.end(rest);
    } finally {
      clearTimeout(this.#timer);
      // Left early (the client went away): the source is closed, as `for await` would.
      if (!exhausted) await source.return?.();
    }
  }

  /**
   * Queues one event. The first events go out at once (the client's time to first token); later ones ready together
   * share a write. A source that has much ready at once (a fast upstream) is written in pieces, so that back-pressure
   * (and the slow-reader timeout) applies to what the client really fails to read, not to one huge write.
   */
  #add(event: string | Uint8Array): void {
    if (typeof event === 'string') this.#batch += event;
    else this.#addBytes(event);
    if (!this.#wroteEvents) {
      this.#wroteEvents = true;
      this.#flush();
      // Node holds a response's write (its socket corked) until the next tick, which comes only once the source has
      // read all it already holds: uncorked now, the first events leave at once, without waiting a turn of the loop.
      this.#res.socket?.uncork();
    } else if (this.#batch.length + this.#partsLength >= MAX_BATCH_CHARS) this.#flush();
    else this.#schedule();
  }

  /** Ends an opened stream with one last event (an error event, already encoded). */
  end(event: string): void {
    this.#flush();
    clearTimeout(this.#timer);
    if (this.#res.destroyed) return;
    this.#res.end(event);
  }

  /** Writes the pending batch in the next event-loop turn (`setImmediate`): events ready in this one share one write. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#flush);
  }

  readonly #flush = () => {
    this.#scheduled = false;
    if (this.#res.destroyed) return;
    const parts = this.#parts;
    if (parts !== undefined) {
      this.#parts = undefined;
      this.#partsLength = 0;
      if (this.#batch !== '') parts.push(this.#batch);
      this.#batch = '';
      this.#writeParts(parts);
      return;
    }
    // No event was ready at once: the headers go out alone, so the client knows the stream is open.
    if (this.#batch === '') {
      if (!this.#res.headersSent) this.#res.flushHeaders();
      return;
    }
    const data = this.#batch;
    this.#batch = '';
    this.#write(data);
  };

  /** Queues events given as bytes after those already ready. */
  #addBytes(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const parts = (this.#parts ??= []);
    if (this.#batch !== '') {
      parts.push(this.#batch);
      this.#partsLength += this.#batch.length;
    }
    this.#batch = '';
    parts.push(bytes);
    this.#partsLength += bytes.length;
  }

  /**
   * Writes `parts` in order in one socket write. The socket is corked, not the response: Node's `res.cork()` holds
   * chunked writes back in a buffer that `res.end()` sends after the last chunk, and so loses them.
   */
  #writeParts(parts: (string | Uint8Array)[]): void {
    if (parts.length === 1) {
      this.#write(parts[0]!);
      return;
    }
    const socket = this.#res.socket;
    socket?.cork();
    for (const part of parts) this.#write(part);
    socket?.uncork();
  }

  #write(data: string | Uint8Array): void {
    this.#timer?.refresh();
    if (!this.#res.write(data) && !this.#draining) {
      this.#draining = this.#waitForDrain().finally(() => {
        this.#draining = undefined;
      });
    }
  }

  #waitForDrain(): Promise<void> {
    const res = this.#res;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      const timer = setTimeout(() => {
        locals(res).error = new GatewayError({
          status: 408,
          type: 'invalid_request_error',
          code: 'client_write_timeout',
          message: `The client read nothing for ${this.#writeTimeoutMs} ms.`,
        });
        res.destroy();
        done();
      }, this.#writeTimeoutMs);
      res.on('drain', done);
      res.on('close', done);
    });
  }
}
