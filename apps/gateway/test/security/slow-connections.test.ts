import { type Socket, connect } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import type { RunningServer } from '../../src/start-server.js';
import { PROBE_CONNECTIONS } from '../../src/http/connection-fairness.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

// Attack (issue #22): about 20,600 slow connections exhausted the process's file descriptors and real requests got
// ECONNRESET. Here 1,000 connections send half a request and wait; the gateway caps open connections
// (server.max_connections, plus the room of 32 for health probes, where a connection gets 1 s for its headers), drops
// the idle ones after server.headers_timeout_ms, and keeps serving.
const KEY = 'sk-switchyard-slow-0123456789';
let upstream: MockUpstream;
let running: RunningServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0, max_connections: 200, headers_timeout_ms: 1000 }
providers:
  openai: { adapter: openai, api_key: sk-up-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o-mini, provider: openai }
`);
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await running?.close();
  await upstream?.close();
});

const openConnections = () =>
  new Promise<number>((resolve, reject) => running.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));

describe('security: slow connections', () => {
  it('holds at most max_connections, closes slow ones after the headers timeout, and keeps serving', async () => {
    const port = running.port;
    let closed = 0;
    let peak = 0;
    for (let i = 0; i < 1000; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      socket.resume(); // read (and drop) the 408, so the close is seen
      socket.on('close', () => closed++);
      socket.on('connect', () =>
        socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'),
      );
      sockets.push(socket);
    }
    const sampler = setInterval(() => void openConnections().then((n) => (peak = Math.max(peak, n))), 20);
    try {
      // Every slow connection is closed by the gateway: those over the cap at once, the others at the headers timeout.
      await expect.poll(() => closed, { timeout: 8_000, interval: 100 }).toBe(1000);
    } finally {
      clearInterval(sampler);
    }
    expect(peak).toBeLessThanOrEqual(200 + PROBE_CONNECTIONS);
    const client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0, timeout: 5_000 });
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices).toHaveLength(1);
  });
});
