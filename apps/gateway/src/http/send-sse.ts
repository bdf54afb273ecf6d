import { once } from 'node:events';
import { type ChatCompletionChunk, toSSEStream } from '@switchyard/core';
import type { Response } from 'express';
import { locals } from './request-locals.js';

/**
 * Streams server-sent events already encoded as text (`data: …\n\n`, or `event: …\ndata: …\n\n`): status 200,
 * `text/event-stream`, each event written as soon as it arrives (events ready in the same event-loop turn share one
 * socket write; back-pressure is respected). When the client disconnects, iteration stops, which closes the source.
 * The source must end a failed stream with its own error event (it should not throw).
 */
export async function sendEventStream(res: Response, events: AsyncIterable<string>): Promise<void> {
  res.status(200);
  res.set({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  // Events that are ready in the same turn of the event loop (an upstream packet often carries several) go out in one
  // socket write at the end of that turn. When the client is slow (a write returns false), reading from the upstream
  // pauses until the response drains.
  let batch = '';
  let scheduled = false;
  let draining: Promise<unknown> | undefined;
  const flush = () => {
    scheduled = false;
    if (batch === '' || res.destroyed) return;
    const data = batch;
    batch = '';
    if (!res.write(data)) {
      draining = Promise.race([once(res, 'drain'), once(res, 'close')]).finally(() => {
        draining = undefined;
      });
    }
  };
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
}

/**
 * Streams chat chunks as server-sent events: one `data:` event per chunk, then `data: [DONE]`, or one
 * `data: {"error":...}` event if the upstream fails mid-stream (see {@link sendEventStream}).
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export function sendSSE(res: Response, chunks: AsyncIterable<ChatCompletionChunk>): Promise<void> {
  return sendEventStream(
    res,
    toSSEStream(chunks, (error) => {
      if (!res.destroyed) locals(res).error = error;
    }),
  );
}
