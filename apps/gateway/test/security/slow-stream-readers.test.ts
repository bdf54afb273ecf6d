import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { type Socket, connect } from 'node:net';
import { type MockUpstream, sseFrames, startMockUpstream } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

// Attack (issue #22): the SSE writer added a `close` listener each time a client was slow and never removed it
// (MaxListenersExceededWarning on long streams to slow readers); a client that never reads held its stream (and the
// upstream call) open for ever; headers went out only with the first chunk, so proxies cut a model thinking for a
// minute. Ordered by events, not by wall-clock sleeps.
const MASTER = 'sk-master-key-slow-readers-0123456789';
const KEEPALIVE_MS = 50;
const WRITE_TIMEOUT_MS = 1_000;
const frame = (content: string) =>
  JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });
// 300 events of 16 KB (4.8 MB): more than the loopback socket buffers hold, so a slow reader pushes back often.
const EVENTS = 300;
const bigFrames = sseFrames(Array.from({ length: EVENTS }, () => frame('x'.repeat(16_000))));

let upstream: MockUpstream;
let running: RunningServer;
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(async () => {
  process.on('warning', onWarning);
  upstream = await startMockUpstream();
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0, stream_keepalive_ms: ${KEEPALIVE_MS}, client_write_timeout_ms: ${WRITE_TIMEOUT_MS} }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
routing: { max_retries: 1, backoff: { base_ms: 1, max_ms: 1 } }
models:
  - { id: gpt-4o, provider: openai, price: { input: 1, output: 1 } }
`);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await running?.close();
  await upstream?.close();
});

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${running.url.replace(/\/v1$/, '')}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Record<string, unknown>;
}

/** A new virtual key: its id and secret. */
async function newKey(name: string): Promise<{ id: string; key: string }> {
  const created = await admin('POST', '/keys', { name });
  return { id: created.id as string, key: created.key as string };
}

const chatBody = JSON.stringify({
  model: 'gpt-4o',
  stream: true,
  messages: [{ role: 'user', content: 'Tell me a long story.' }],
});

/** Sends a streamed chat request over a raw socket (so the test decides when, and whether, to read the answer). */
async function rawStreamRequest(key: string): Promise<Socket> {
  const { port } = new URL(running.url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(chatBody)}\r\n\r\n${chatBody}`,
  );
  return socket;
}

/** The gateway's response object of the next request (to watch its listeners). */
function nextResponse(): Promise<ServerResponse> {
  return new Promise((resolve) => running.server.once('request', (_req, res: ServerResponse) => resolve(res)));
}

describe('security: slow stream readers', () => {
  it('keeps one drain/close listener pair however often a slow reader pushes back, over hundreds of chunks', async () => {
    upstream.route('POST /v1/chat/completions', { chunks: bigFrames });
    const { key } = await newKey('slow-reader');
    const responding = nextResponse();
    const socket = await rawStreamRequest(key);
    socket.pause();
    const res = await responding;
    let pushBacks = 0;
    res.on('drain', () => pushBacks++);
    let maxClose = 0;
    let maxDrain = 0;
    let received = 0;
    let tail = '';
    // Reads one buffer (at most 64 KB) every 5 ms: a reader much slower than the upstream.
    for await (const data of socket) {
      received += (data as Buffer).length;
      maxClose = Math.max(maxClose, res.listenerCount('close'));
      maxDrain = Math.max(maxDrain, res.listenerCount('drain'));
      tail = (tail + (data as Buffer).toString('latin1')).slice(-64);
      if (tail.includes('data: [DONE]')) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    socket.destroy();
    expect(received).toBeGreaterThan(EVENTS * 16_000);
    // The writer had to wait for the socket many times: each wait would have leaked a listener before.
    expect(pushBacks).toBeGreaterThan(20);
    expect(maxDrain).toBeLessThanOrEqual(2);
    expect(maxClose).toBeLessThanOrEqual(res.getMaxListeners() - 2);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  }, 60_000);

  it('closes the connection of a client that stops reading, aborts the upstream call and books it', async () => {
    const before = upstream.requestsTo('POST /v1/chat/completions').length;
    upstream.route('POST /v1/chat/completions', { chunks: [...bigFrames, ...bigFrames] });
    const { id, key } = await newKey('non-reader');
    const socket = await rawStreamRequest(key);
    socket.pause(); // never reads until the gateway has given up
    await expect
      .poll(() => upstream.requestsTo('POST /v1/chat/completions')[before]?.closedByClient, { timeout: 10_000 })
      .toBe(true);
    // The call is settled in the ledger, not as a success.
    await expect
      .poll(async () => (await admin('GET', `/usage?key=${id}&group_by=status`)).data, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ group: '499', requests: 1 })]);
    // Once the client reads again it gets what was in flight, then the end of a connection the gateway closed.
    let received = 0;
    socket.on('data', (data: Buffer) => (received += data.length));
    socket.on('error', () => {});
    socket.resume();
    await once(socket, 'close');
    expect(received).toBeLessThan(2 * EVENTS * 16_000);
  });

  it('sends 200, the headers and keep-alive comments as soon as the upstream accepted the call, before its first chunk', async () => {
    const { key } = await newKey('patient');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const safety = setTimeout(release, 5_000);
    let firstChunkSent = false;
    upstream.route('POST /v1/chat/completions', {
      chunks: sseFrames([frame('Once'), frame(' upon a time')]),
      beforeChunk: async (index) => {
        if (index > 0) return;
        await released; // the model "thinks" until the client has seen the headers and a keep-alive
        firstChunkSent = true;
      },
    });
    const res = await fetch(`${running.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: chatBody,
    });
    expect(firstChunkSent).toBe(false);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-switchyard-provider')).toBe('openai');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(': keep-alive\n\n')) text += decoder.decode((await reader.read()).value);
    expect(firstChunkSent).toBe(false);
    expect(text).not.toContain('data:');
    release();
    for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value);
    clearTimeout(safety);
    expect(text).toContain('"content":"Once"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('ends an accepted stream with an error event when the upstream then breaks off before its first chunk, after retries', async () => {
    const { key } = await newKey('unlucky');
    // Each attempt is accepted, then reset before its first chunk - once the client has the stream's headers.
    let headersSeen!: () => void;
    const seen = new Promise<void>((resolve) => (headersSeen = resolve));
    upstream.route('POST /v1/chat/completions', {
      chunks: [frame('never')],
      resetAfterChunks: 0,
      beforeChunk: () => seen,
    });
    const before = upstream.requestsTo('POST /v1/chat/completions').length;
    const res = await fetch(`${running.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: chatBody,
    });
    headersSeen();
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(': keep-alive\n\n');
    expect(text).not.toContain('[DONE]');
    const last = text.trim().split('\n\n').at(-1)!;
    expect(JSON.parse(last.replace(/^data: /, ''))).toMatchObject({ error: { type: 'server_error' } });
    // routing.max_retries: 1 - the retry happened behind the keep-alive comments.
    expect(upstream.requestsTo('POST /v1/chat/completions').length - before).toBe(2);
  });

  it('retries an accepted attempt that broke off before its first chunk without the client noticing', async () => {
    const { key } = await newKey('lucky');
    let headersSeen!: () => void;
    const seen = new Promise<void>((resolve) => (headersSeen = resolve));
    const good = sseFrames([frame('Hello'), frame(' again')]);
    upstream.route('POST /v1/chat/completions', [
      { chunks: [frame('never')], resetAfterChunks: 0, beforeChunk: () => seen },
      { chunks: good },
    ]);
    const res = await fetch(`${running.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: chatBody,
    });
    headersSeen();
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"content":"Hello"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('answers a call that fails before any upstream accepted it with its error status, not a stream', async () => {
    const { key } = await newKey('refused');
    upstream.route('POST /v1/chat/completions', {
      status: 400,
      json: { error: { message: 'bad', type: 'invalid_request_error', param: 'messages', code: null } },
    });
    const res = await fetch(`${running.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: chatBody,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('messages');
  });
});
