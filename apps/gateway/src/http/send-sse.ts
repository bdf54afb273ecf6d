import { once } from 'node:events';
import { type ChatCompletionChunk, toSSEStream } from '@switchyard/core';
import type { Response } from 'express';
import { locals } from './request-locals.js';

/**
 * Streams chat chunks as server-sent events: `text/event-stream`, one `data:` event per chunk written as soon as it
 * arrives (respecting back-pressure), then `data: [DONE]`, or one `data: {"error":...}` event if the upstream fails
 * mid-stream. When the client disconnects, iteration stops, which closes the upstream stream.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export async function sendSSE(res: Response, chunks: AsyncIterable<ChatCompletionChunk>): Promise<void> {
  res.status(200);
  res.set({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  for await (const event of toSSEStream(chunks, (error) => {
    if (!res.destroyed) locals(res).error = error;
  })) {
    if (res.destroyed) break;
    if (!res.write(event)) {
      await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
  }
  res.end();
}
