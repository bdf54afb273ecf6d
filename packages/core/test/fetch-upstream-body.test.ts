import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, fetchUpstreamBody } from '../src/index.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === '/ok') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    else if (req.url === '/chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"part":');
      setTimeout(() => res.end('"two"}'), 5);
    } else if (req.url === '/error') res.writeHead(429, { 'retry-after': '3' }).end('{"error":{"message":"slow down"}}');
    else if (req.url === '/reset') req.socket.destroy();
    else if (req.url === '/hang') setTimeout(() => res.end('{}'), 5_000);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const mapError = (status: number, text: string, headers: Record<string, string | string[] | undefined>) =>
  new GatewayError({ status, type: 'rate_limit_error', message: `mapped ${status}: ${text} (retry-after ${String(headers['retry-after'])})` });

describe('fetchUpstreamBody', () => {
  it('reads a whole answer, across reads, and reports its headers once they are in', async () => {
    let accepted = 0;
    const ok = await fetchUpstreamBody({ provider: 'p', url: `${base}/ok`, body: '{}', mapError, upstream: { onResponseHeaders: () => accepted++ } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/json');
    expect(ok.bytes.toString()).toBe('{"ok":true}');
    const chunked = await fetchUpstreamBody({ provider: 'p', url: `${base}/chunked`, body: '{}', mapError, upstream: { onResponseHeaders: () => accepted++ } });
    expect(chunked.bytes.toString()).toBe('{"part":"two"}');
    expect(accepted).toBe(2);
  });

  it('throws what mapError makes of an answer of 400 or more, without reporting it accepted', async () => {
    let accepted = 0;
    const error = await fetchUpstreamBody({ provider: 'p', url: `${base}/error`, body: '{}', mapError, upstream: { onResponseHeaders: () => accepted++ } }).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(429);
    expect((error as GatewayError).message).toBe('mapped 429: {"error":{"message":"slow down"}} (retry-after 3)');
    expect(accepted).toBe(0);
  });

  it('caps the body: a longer answer is 502 upstream_response_too_large naming the provider and the limit', async () => {
    const error = await fetchUpstreamBody({ provider: 'small', url: `${base}/chunked`, body: '{}', mapError, limits: { maxResponseBytes: 10 } }).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(502);
    expect((error as GatewayError).code).toBe('upstream_response_too_large');
    expect((error as GatewayError).message).toContain('providers.small.limits.max_response_bytes');
  });

  it('maps a reset connection to 502 and a stalled one to 504, and throws the reason of an abort', async () => {
    const reset = await fetchUpstreamBody({ provider: 'p', url: `${base}/reset`, body: '{}', mapError }).catch((e: unknown) => e);
    expect((reset as GatewayError).status).toBe(502);
    const stalled = await fetchUpstreamBody({ provider: 'p', url: `${base}/hang`, body: '{}', mapError, timeouts: { headersMs: 50 } }).catch((e: unknown) => e);
    expect((stalled as GatewayError).status).toBe(504);
    const controller = new AbortController();
    const reason = new Error('client gone');
    const pending = fetchUpstreamBody({ provider: 'p', url: `${base}/hang`, body: '{}', mapError, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
    const early = new AbortController();
    early.abort(reason);
    await expect(fetchUpstreamBody({ provider: 'p', url: `${base}/ok`, mapError, signal: early.signal })).rejects.toBe(reason);
  });
});
