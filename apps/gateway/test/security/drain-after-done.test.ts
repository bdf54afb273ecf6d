import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

// Attack (issue #38, item 9): after `data: [DONE]` the gateway read the rest of an upstream stream to reuse its
// connection, with no cap: an upstream (or whatever answers for it) that keeps sending after [DONE] held a connection
// and the gateway's CPU for ever. Now at most 64 KiB within 1 s are read, then the connection is closed.
const KEY = 'sk-switchyard-drain-0123456789';
const JUNK = `: ${'x'.repeat(16 * 1024 - 3)}\n`; // a 16 KiB SSE comment line
let upstream: Server;
let running: RunningServer;
let writtenAfterDone = 0;
let closedAfterMs: number | undefined;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta: { content: 'done' }, finish_reason: 'stop' }],
    };
    res.write(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    const doneAt = performance.now();
    const timer = setInterval(() => {
      if (res.write(JUNK)) writtenAfterDone += JUNK.length;
    }, 2);
    res.on('close', () => {
      clearInterval(timer);
      closedAfterMs = performance.now() - doneAt;
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-up-000000, base_url: "http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1", stream_usage: false }
models:
  - { id: gpt-4o-mini, provider: openai }
`);
});
afterAll(async () => {
  await running?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('security: an upstream that keeps sending after [DONE]', () => {
  it('gets its connection closed within the drain bounds, and the client its answer', async () => {
    const client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0, timeout: 10_000 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
    expect(text).toBe('done');
    await expect.poll(() => closedAfterMs, { timeout: 5_000 }).toBeDefined();
    console.log(
      `upstream connection closed ${closedAfterMs!.toFixed(0)} ms after [DONE], ${writtenAfterDone} bytes accepted by the socket after it`,
    );
    expect(closedAfterMs!).toBeLessThan(2_000);
  });
});
