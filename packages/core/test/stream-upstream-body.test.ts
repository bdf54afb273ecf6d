import type { Socket } from 'node:net';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { type GatewayError, mapTransportError, parseSSEBatches, streamUpstreamBody } from '../src/index.js';
import { mapError, useDispatchTestUpstream } from './helpers/dispatch-test-upstream.js';

/** Sockets the server accepted, in order (to tell a reused connection from a new one). */
const sockets: Socket[] = [];
/** Set by /endless: how many bytes it managed to write before the client stopped reading or left. */
let endlessClosed: Promise<void> | undefined;

const upstream = useDispatchTestUpstream((req, res) => {
  if (!sockets.includes(req.socket)) sockets.push(req.socket);
  if (req.url === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 1\n\n');
    setTimeout(() => res.write('data: 2\n\n'), 5);
    setTimeout(() => res.end('data: [DONE]\n\n'), 10);
  } else if (req.url === '/big') {
    // 4 MiB written at once: far more than the body holds unread before it pauses the connection.
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.alloc(4 * 1024 * 1024, 'x'));
  } else if (req.url === '/tail') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: [DONE]\n\n');
    setTimeout(() => res.end(': trailing comment\n\n'), 20);
  } else if (req.url === '/endless') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const timer = setInterval(() => res.write('data: more\n\n'), 2);
    endlessClosed = new Promise((resolve) => res.on('close', () => resolve(clearInterval(timer))));
  } else if (req.url === '/break') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 1\n\n');
    setTimeout(() => req.socket.destroy(), 10);
  }
});

const text = (parts: Uint8Array[]) => Buffer.concat(parts).toString();

describe('streamUpstreamBody', () => {
  it('resolves at the headers and gives the reads as they arrive, then the end', async () => {
    let accepted = 0;
    const response = await streamUpstreamBody({
      provider: 'p',
      url: `${upstream.url}/events`,
      body: '{}',
      mapError,
      upstream: { onResponseHeaders: () => accepted++ },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(accepted).toBe(1);
    const parts: Uint8Array[] = [];
    for await (const part of response.body) parts.push(part);
    expect(text(parts)).toBe('data: 1\n\ndata: 2\n\ndata: [DONE]\n\n');
    expect(parts.length).toBeGreaterThan(1);
  });

  it('delivers a body far larger than it holds unread, byte for byte, to a slow reader', async () => {
    const response = await streamUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/big`,
      mapError,
      method: 'GET',
    });
    let size = 0;
    let allX = true;
    for await (const part of response.body) {
      size += part.length;
      allX &&= Buffer.from(part).every((byte) => byte === 0x78);
      await new Promise((r) => setImmediate(r));
    }
    expect(size).toBe(4 * 1024 * 1024);
    expect(allX).toBe(true);
  });

  it('throws what mapError makes of an answer of 400 or more, without reporting it accepted', async () => {
    let accepted = 0;
    const error = await streamUpstreamBody({
      provider: 'p',
      url: `${upstream.url}/error`,
      body: '{}',
      mapError,
      upstream: { onResponseHeaders: () => accepted++ },
    }).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(429);
    expect((error as GatewayError).message).toBe('mapped 429: {"error":{"message":"slow down"}} (retry-after 3)');
    expect(accepted).toBe(0);
    const capped = await streamUpstreamBody({
      provider: 'small',
      upstream: undefined,
      url: `${upstream.url}/error`,
      body: '{}',
      mapError,
      limits: { maxErrorBytes: 5 },
    }).catch((e: unknown) => e);
    expect((capped as GatewayError).code).toBe('upstream_response_too_large');
  });

  it('stopped after the end marker, reads the rest and keeps the connection for the next call', async () => {
    const dispatcher = new Agent({ connections: 1 });
    try {
      const before = sockets.length;
      const first = await streamUpstreamBody({
        provider: 'p',
        upstream: undefined,
        url: `${upstream.url}/tail`,
        body: '{}',
        mapError,
        dispatcher,
      });
      for await (const batch of parseSSEBatches(first.body, { drainOnReturn: true })) {
        if (batch.events.some((event) => event.data === '[DONE]')) break;
      }
      const second = await streamUpstreamBody({
        provider: 'p',
        upstream: undefined,
        url: `${upstream.url}/events`,
        body: '{}',
        mapError,
        dispatcher,
      });
      const parts: Uint8Array[] = [];
      for await (const part of second.body) parts.push(part);
      expect(text(parts)).toContain('data: [DONE]');
      // Both calls went over one connection: the first was read to its end, not aborted.
      expect(sockets.length - before).toBe(1);
    } finally {
      await dispatcher.close();
    }
  });

  it('closes the connection when destroyed (the client left), and fails a read with the abort reason', async () => {
    const destroyed = await streamUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/endless`,
      body: '{}',
      mapError,
    });
    await destroyed.body.next();
    destroyed.body.destroy();
    expect(destroyed.body.destroyed).toBe(true);
    await endlessClosed;
    expect(await destroyed.body.next()).toEqual({ done: true, value: undefined });

    const controller = new AbortController();
    const reason = new Error('client gone');
    const aborted = await streamUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/endless`,
      body: '{}',
      mapError,
      signal: controller.signal,
    });
    await aborted.body.next();
    setTimeout(() => controller.abort(reason), 10);
    const thrown = await (async () => {
      for await (const _ of aborted.body);
    })().catch((e: unknown) => e);
    expect(thrown).toBe(reason);
    await endlessClosed;
  });

  it('fails a read when the connection breaks mid-body (502 once mapped), after the reads that came before', async () => {
    const response = await streamUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/break`,
      body: '{}',
      mapError,
    });
    const parts: Uint8Array[] = [];
    const thrown = await (async () => {
      for await (const part of response.body) parts.push(part);
    })().catch((e: unknown) => e);
    expect(text(parts)).toBe('data: 1\n\n');
    expect((mapTransportError('p', thrown) as GatewayError).status).toBe(502);
  });

  it('maps a stalled answer to 504 and throws the reason of an abort before the headers', async () => {
    const stalled = await streamUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/hang`,
      body: '{}',
      mapError,
      timeouts: { headersMs: 50 },
    }).catch((e: unknown) => e);
    expect((stalled as GatewayError).status).toBe(504);
    const controller = new AbortController();
    const reason = new Error('client gone');
    const pending = streamUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/hang`,
      body: '{}',
      mapError,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });
});
