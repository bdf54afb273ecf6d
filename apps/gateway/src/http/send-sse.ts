import { type ChatCompletionChunk, GatewayError, toSSEStream } from '@switchyard/core';
import type { Response } from 'express';
import { locals } from './request-locals.js';

/** Options of {@link sendEventStream} and {@link sendSSE}. */
export interface SSEOptions {
  /** Redacted from every field of a mid-stream error event (gateway and upstream keys); {@link sendSSE} only. */
  secrets?: readonly string[];
  /** A `: keep-alive` comment is sent after this long without any write, ms. Default 15,000. */
  keepAliveMs?: number;
  /** A client that reads nothing for this long while the gateway waits to write is disconnected, ms. Default 60,000. */
  writeTimeoutMs?: number;
}

/**
 * Streams server-sent events already encoded as text (`data: …\n\n`, or `event: …\ndata: …\n\n`): status 200 and
 * `text/event-stream` headers at once, each event written as soon as it arrives (events ready in the same event-loop
 * turn share one socket write). While nothing is sent for `keepAliveMs` a `: keep-alive` comment goes out, so proxies
 * keep the connection of a model that thinks for minutes. Back-pressure is respected: when a write is refused, reading
 * from the source pauses until the socket drains (one `drain`/`close` listener pair, removed as soon as either fires);
 * a client that reads nothing for `writeTimeoutMs` is disconnected. When the client disconnects, iteration stops, which
 * closes the source. The source must end a failed stream with its own error event (it should not throw).
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#authoring-notes
 */
export async function sendEventStream(res: Response, events: AsyncIterable<string>, options: SSEOptions = {}): Promise<void> {
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const writeTimeoutMs = options.writeTimeoutMs ?? 60_000;
  res.status(200);
  res.set({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  let batch = '';
  let scheduled = false;
  let draining: Promise<void> | undefined;
  const waitForDrain = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      const timer = setTimeout(() => {
        locals(res).error = new GatewayError({ status: 408, type: 'invalid_request_error', code: 'client_write_timeout', message: `The client read nothing for ${writeTimeoutMs} ms.` });
        res.destroy();
        done();
      }, writeTimeoutMs);
      res.on('drain', done);
      res.on('close', done);
    });
  const write = (data: string) => {
    keepAlive.refresh();
    if (!res.write(data) && !draining) {
      draining = waitForDrain().finally(() => {
        draining = undefined;
      });
    }
  };
  const keepAlive = setInterval(() => {
    if (!draining && !res.destroyed) write(': keep-alive\n\n');
  }, keepAliveMs);
  const flush = () => {
    scheduled = false;
    if (batch === '' || res.destroyed) return;
    const data = batch;
    batch = '';
    write(data);
  };
  try {
    for await (const event of events) {
      if (res.destroyed) break;
      batch += event;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      if (draining) await draining;
    }
    flush();
    res.end();
  } finally {
    clearInterval(keepAlive);
  }
}

/**
 * Streams chat chunks as server-sent events: one `data:` event per chunk, then `data: [DONE]`, or one
 * `data: {"error":...}` event (`secrets` redacted from every field) if the upstream fails mid-stream (see
 * {@link sendEventStream} for keep-alive and slow clients).
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export function sendSSE(res: Response, chunks: AsyncIterable<ChatCompletionChunk>, options: SSEOptions = {}): Promise<void> {
  return sendEventStream(
    res,
    toSSEStream(
      chunks,
      (error) => {
        if (!res.destroyed) locals(res).error = error;
      },
      options.secrets,
    ),
    options,
  );
}
