import type { Dispatcher } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';
import { DRAIN_LIMITS } from './drain-limits.js';
import { CappedBody, registerUpstreamBody } from './upstream-body-limits.js';
import {
  abortLink,
  dispatchUpstreamRequest,
  mappedUpstreamError,
  upstreamCallLimits,
} from './dispatch-upstream-request.js';
import { type UpstreamRequestOptions, mapTransportError } from './upstream-request.js';

/** Bytes an {@link UpstreamBodyStream} holds unread before it pauses the upstream connection (back-pressure). */
const HIGH_WATER_BYTES = 64 * 1024;

/** An upstream answer whose body is read as it arrives ({@link streamUpstreamBody}). */
export interface UpstreamStreamResponse {
  statusCode: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBodyStream;
}

/**
 * Sends one upstream request through undici's `dispatch` and resolves at the response headers (status < 400) with the
 * body as an {@link UpstreamBodyStream}: the reads undici hands over are queued and taken by one consumer, with no Node
 * `Readable` in between (the gateway's path for event streams, where a `Readable` and its async iterator cost more per
 * read than the events they carry). Same options, errors and limits as `sendUpstreamRequest`: for status >= 400 the error
 * `mapError` gives for at most `maxErrorBytes` of the body (502 `upstream_response_too_large` beyond); 504 on connect,
 * headers or body-idle timeouts; 502 when the upstream is unreachable or resets; the abort reason when `signal` aborts
 * (the upstream request is closed at once). Calls `upstream.onResponseHeaders` at the headers of a success.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=dispatcherdispatchoptions-handler
 */
export function streamUpstreamBody(options: UpstreamRequestOptions): Promise<UpstreamStreamResponse> {
  const { provider, signal } = options;
  if (signal?.aborted) return Promise.reject(mapTransportError(provider, signal.reason, signal));
  const limits = upstreamCallLimits(options);
  return new Promise<UpstreamStreamResponse>((resolve, reject) => {
    let statusCode = 0;
    let headers: UpstreamStreamResponse['headers'] = {};
    let errorBody: CappedBody | undefined;
    let body: UpstreamBodyStream | undefined;
    let settled = false;
    const link = abortLink(signal);
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      link.unlink();
      reject(GatewayError.isInstance(error) ? error : mapTransportError(provider, error, signal));
    };
    // An error body over its limit: answered at once, and the connection closed (the rest is never read).
    const tooLarge = (started: Dispatcher.DispatchController, error: unknown) => {
      fail(error);
      started.abort(error as Error);
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        link.started(started);
      },
      onResponseStart(started, status, responseHeaders) {
        if (status < 200) return;
        statusCode = status;
        headers = responseHeaders as UpstreamStreamResponse['headers'];
        // The headers are parsed: undici's raw copy (a Buffer per name and value) would live as long as the stream.
        started.rawHeaders = null;
        if (status >= 400) {
          errorBody = new CappedBody(provider, 'maxErrorBytes', limits.maxErrorBytes);
          try {
            errorBody.declare(headers['content-length']);
          } catch (error) {
            tooLarge(started, error);
          }
          return;
        }
        settled = true;
        body = new UpstreamBodyStream(provider, started, signal, link.unlink);
        registerUpstreamBody(body, provider, limits);
        options.upstream?.onResponseHeaders?.();
        resolve({ statusCode, headers, body });
      },
      onResponseData(started, chunk) {
        if (body) body.push(chunk);
        else if (errorBody && !settled) {
          try {
            errorBody.add(chunk);
          } catch (error) {
            tooLarge(started, error);
          }
        }
      },
      onResponseEnd() {
        if (body) {
          body.end();
          return;
        }
        if (!settled && errorBody) fail(mappedUpstreamError(options, statusCode, errorBody.bytes(), headers));
      },
      onResponseError(_controller, error) {
        if (body) body.fail(error);
        else fail(error);
      },
    };
    try {
      dispatchUpstreamRequest(options, handler);
    } catch (error) {
      fail(error);
    }
  });
}

/**
 * The body of an {@link streamUpstreamBody} answer: the upstream's reads in order, for one consumer
 * (`for await`, or its iterator). Over {@link HIGH_WATER_BYTES} unread bytes the connection is paused until the consumer
 * catches up. A read fails with what undici reported (map it with `mapTransportError`; the abort reason once the
 * call's signal aborted). Stopping early (`return()`, {@link resume}) reads the rest and discards it, so the connection
 * is reused, within {@link DRAIN_LIMITS} (past 64 KiB or 1 s the connection is closed); {@link destroy} closes the
 * connection instead (a client that left, a body over a limit).
 */
export class UpstreamBodyStream implements AsyncIterable<Uint8Array>, AsyncIterator<Uint8Array> {
  #queue: Buffer[] = [];
  #queued = 0;
  #ended = false;
  #error: unknown;
  #failed = false;
  #discarding = false;
  #destroyed = false;
  #paused = false;
  #discarded = 0;
  #drainTimer?: NodeJS.Timeout;
  #waiting?: { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void };

  /** @internal Made by {@link streamUpstreamBody}. */
  constructor(
    private readonly provider: string,
    private readonly controller: Dispatcher.DispatchController,
    private readonly signal: AbortSignal | undefined,
    private readonly onDone: () => void,
  ) {}

  /** True once {@link destroy} closed the connection. */
  get destroyed(): boolean {
    return this.#destroyed;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The next read of the body (bytes), `done` at its end; rejects with the transport error undici reported. */
  next(): Promise<IteratorResult<Uint8Array>> {
    const chunk = this.#queue.shift();
    if (chunk !== undefined) {
      this.#queued -= chunk.length;
      if (this.#paused && this.#queued < HIGH_WATER_BYTES) {
        this.#paused = false;
        this.controller.resume();
      }
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.#failed) return Promise.reject(this.#error);
    if (this.#ended || this.#discarding) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  /** Stops reading: the rest of the body is read and discarded (the connection stays reusable). */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.resume();
    return Promise.resolve({ done: true, value: undefined });
  }

  /**
   * Discards what is queued and whatever still arrives, reading on to the end of the body within {@link DRAIN_LIMITS}:
   * past 64 KiB more, or 1 s, the connection is closed ({@link destroy}).
   */
  resume(): void {
    if (!this.#discarding && !this.#ended && !this.#failed) {
      this.#drainTimer = setTimeout(() => this.destroy(), DRAIN_LIMITS.maxMs);
      this.#drainTimer.unref();
    }
    this.#discarding = true;
    this.#queue = [];
    this.#queued = 0;
    if (this.#paused) {
      this.#paused = false;
      this.controller.resume();
    }
  }

  /** Closes the upstream connection (the request is aborted) and drops what is queued. */
  destroy(error?: Error): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    clearTimeout(this.#drainTimer);
    this.#discarding = true;
    this.#queue = [];
    this.#queued = 0;
    this.onDone();
    if (!this.#ended && !this.#failed)
      this.controller.abort(error ?? new Error(`The ${this.provider} response body was closed.`));
    this.#settleWaiting({ done: true, value: undefined });
  }

  /** @internal One read from undici. */
  push(chunk: Buffer): void {
    if (this.#discarding) {
      this.#discarded += chunk.length;
      if (this.#discarded > DRAIN_LIMITS.maxBytes) this.destroy();
      return;
    }
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting.resolve({ done: false, value: chunk });
      return;
    }
    this.#queue.push(chunk);
    this.#queued += chunk.length;
    if (!this.#paused && this.#queued >= HIGH_WATER_BYTES) {
      this.#paused = true;
      this.controller.pause();
    }
  }

  /** @internal The body's end. */
  end(): void {
    clearTimeout(this.#drainTimer);
    this.#ended = true;
    this.onDone();
    this.#settleWaiting({ done: true, value: undefined });
  }

  /** @internal The transport failed (reset, body timeout, abort). */
  fail(error: unknown): void {
    clearTimeout(this.#drainTimer);
    this.onDone();
    if (this.#destroyed) return;
    this.#failed = true;
    // An abort by the call's signal fails with its reason, as a Node stream body would.
    this.#error = this.signal?.aborted ? (this.signal.reason ?? error) : error;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting.reject(this.#error);
    }
  }

  #settleWaiting(result: IteratorResult<Uint8Array>): void {
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting.resolve(result);
    }
  }
}
