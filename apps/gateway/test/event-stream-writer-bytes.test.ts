import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamWriter } from '../src/http/event-stream-writer.js';

/** Sources of events, by name: text and bytes mixed, as the byte pass-through of OpenAI-family streams gives them. */
const sources: Record<string, () => AsyncGenerator<string | Uint8Array>> = {
  async *mixed() {
    yield 'data: 1\n\n';
    yield Buffer.from('data: 2\n\ndata: 3\n\n');
    yield 'data: 4\n\n';
    yield new TextEncoder().encode('data: 5\n\n');
    yield 'data: [DONE]\n\n';
  },
  async *bytesLast() {
    yield 'data: 1\n\n';
    yield 'data: 2\n\n';
    yield Buffer.from('data: 3\n\n');
  },
  async *slow() {
    yield 'data: 1\n\n';
    yield Buffer.from('data: 2\n\n');
    // The bytes go out in their own turn, before the next event is ready.
    await sleep(20);
    yield 'data: 3\n\n';
    yield Buffer.from('data: 4\n\n');
    await sleep(20);
    yield Buffer.from('data: \u00e9\n\n');
    yield 'data: [DONE]\n\n';
  },
};

let url = '';
let close = () => {};

beforeAll(async () => {
  const app = express();
  app.get('/:source', (req, res) => void EventStreamWriter.of(res).pipe(sources[req.params.source]!()));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe('EventStreamWriter over HTTP, events given as text and as bytes', () => {
  it('writes them in order, the bytes as they are, and ends the response after the last', async () => {
    const res = await fetch(`${url}/mixed`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await res.text()).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\ndata: 5\n\ndata: [DONE]\n\n');
  });

  it('sends bytes that are the last thing ready before the end', async () => {
    expect(await (await fetch(`${url}/bytesLast`)).text()).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');
  });

  it('sends bytes ready before a pause without waiting for the next event', async () => {
    const res = await fetch(`${url}/slow`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    // Everything before the first pause arrives before the events after it exist.
    while (!text.includes('data: 2\n\n')) text += (await reader.read()).value ?? '';
    expect(text).toBe('data: 1\n\ndata: 2\n\n');
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += read.value;
    expect(text).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\ndata: \u00e9\n\ndata: [DONE]\n\n');
  });
});
