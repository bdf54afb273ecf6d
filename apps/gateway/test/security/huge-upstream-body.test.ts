import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

// Attack (issue #22): upstream bodies were buffered without limit (a 1 GB answer took the gateway to 2.2 GiB); a 100 MB
// error body was returned and logged in full. The upstream here streams 200 MB of filler (never held in memory).
const KEY = 'sk-switchyard-bodies-0123456789';
const MB = 1024 * 1024;
const filler = Buffer.alloc(MB, 'a');

/** Writes `total` bytes after `head`, respecting back-pressure; stops when the gateway hangs up. */
async function pour(res: import('node:http').ServerResponse, head: string, total: number): Promise<void> {
  res.write(head);
  for (let sent = 0; sent < total && !res.destroyed; sent += filler.length) {
    if (!res.write(filler)) {
      await new Promise((r) => {
        res.once('drain', r);
        res.once('close', r);
      });
    }
  }
  res.end();
}

let upstream: Server;
let running: RunningServer;
let client: OpenAI;
const bytesServed = { total: 0 };

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    res.on('close', () => (bytesServed.total += res.socket?.bytesWritten ?? 0));
    const mode = req.url!.includes('/big/') ? req.url!.split('/big/')[1]!.split('/')[0] : '';
    if (mode === 'json-declared') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * MB) });
      void pour(res, '{"id":"x","filler":"', 200 * MB - 20);
    } else if (mode === 'json-chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      void pour(res, '{"id":"x","filler":"', 200 * MB);
    } else if (mode === 'event') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void pour(res, 'data: {"id":"x","filler":"', 200 * MB);
    } else if (mode === 'error') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      void pour(res, 'upstream exploded: ', 100 * MB);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  json-declared: { adapter: openai, api_key: sk-up-000000, base_url: "${base}/big/json-declared/v1" }
  json-chunked: { adapter: openai, api_key: sk-up-000000, base_url: "${base}/big/json-chunked/v1" }
  event: { adapter: openai, api_key: sk-up-000000, base_url: "${base}/big/event/v1" }
  error: { adapter: openai, api_key: sk-up-000000, base_url: "${base}/big/error/v1" }
  small:
    adapter: openai
    api_key: sk-up-000000
    base_url: "${base}/big/json-chunked/v1"
    limits: { max_response_bytes: 1048576 }
routing: { max_retries: 0 }
`);
  client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0, timeout: 15_000 });
});
afterAll(async () => {
  await running?.close();
  await new Promise((r) => upstream?.close(r));
});

const failure = (model: string, stream = false) =>
  client.chat.completions
    .create({ model, stream, messages: [{ role: 'user', content: 'hi' }] } as never)
    .then(async (result) => {
      for await (const _ of result as unknown as AsyncIterable<unknown>) {
        // drain
      }
      return undefined;
    })
    .catch((error: unknown) => error as { status: number; error: { code: string; message: string } } & Error);

describe('security: upstream bodies are capped', () => {
  it('answers 502 naming the provider and the limit for a 200 MB body announced by content-length', async () => {
    const error = await failure('json-declared/m');
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    expect(error!.message).toContain("'json-declared'");
    expect(error!.message).toContain(String(64 * MB));
  });

  it('stops reading a 200 MB chunked body at the 64 MiB default and answers 502', async () => {
    const before = process.memoryUsage().rss;
    const error = await failure('json-chunked/m');
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    // Far less than the 200 MB sent (the gateway stopped reading at the limit).
    expect(process.memoryUsage().rss - before).toBeLessThan(180 * MB);
  });

  it('applies a per-provider limit (providers.small.limits.max_response_bytes)', async () => {
    const error = await failure('small/m');
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    expect(error!.message).toContain('1048576 byte limit (providers.small.limits.max_response_bytes)');
  });

  it('caps a single stream event at 8 MiB', async () => {
    const error = await failure('event/m', true);
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    expect(error!.message).toContain('stream event');
  });

  it('reads at most 64 KiB of a 100 MB error body', async () => {
    const error = await failure('error/m');
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    expect(error!.message).toContain('error body');
  });
});
