import { type MockReply, type MockUpstream, openaiReplayRoutes, sseFrames, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { recordedOpenAIText as recordedText } from './helpers/recorded-openai.js';

const KEY = 'sk-switchyard-resilience-0123456789';
const CHAT = 'POST /v1/chat/completions';
const lines = testkitFixtures().chunkLines('openai/openai-text.chunks.txt');

let primary: MockUpstream;
let backup: MockUpstream;
let running: RunningServer;
let client: OpenAI;
const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

useGatewayWithUpstreams(
  {
    upstreams: {
      primary: {},
      backup: { routes: openaiReplayRoutes() },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  primary: { adapter: openai, api_key: sk-primary-000000, base_url: "${url.primary}/v1" }
  backup: { adapter: openai, api_key: sk-backup-000000, base_url: "${url.backup}/v1" }
models:
  - { id: chat, provider: primary, upstream: gpt-4.1-nano, fallbacks: [chat-backup], timeouts: { first_byte_ms: 150, idle_ms: 150 } }
  - { id: chat-backup, provider: backup, upstream: gpt-4.1-nano }
  - { id: solo, provider: primary, timeouts: { first_byte_ms: 150, idle_ms: 150, total_ms: 1500 } }
routing: { max_retries: 1, backoff: { base_ms: 5, max_ms: 20 }, cooldown: { failures: 1000, seconds: 1 } }
log: { level: silent }
`,
    clientTimeoutMs: 5000,
    clearBetweenTests: true,
  },
  (gateway) =>
    ({
      upstreams: { primary, backup },
      running,
      openai: client,
    } = gateway),
);

const ask = () =>
  client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
const askStream = () =>
  client.chat.completions
    .create({ model: 'chat', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    .withResponse();

const faults: [string, MockReply][] = [
  ['500', { status: 500, json: { error: { message: 'boom', type: 'server_error', param: null, code: null } } }],
  ['503', { status: 503, json: { error: { message: 'unavailable', type: 'server_error', param: null, code: null } } }],
  ['connection reset before headers', { reset: true }],
  [
    'reset mid-body',
    {
      headers: { 'content-type': 'application/json' },
      chunks: ['{"id":"chatcmpl-1","object":"chat.', 'completion"}'],
      resetAfterChunks: 1,
    },
  ],
  ['stall before headers', { hang: true }],
  ['invalid JSON body', { headers: { 'content-type': 'application/json' }, body: '{"id": "chatcmpl-1", "choices": [' }],
];

describe("a failing target: the client gets the next target's answer", () => {
  it.each(faults)('%s', async (_name, fault) => {
    primary.route(CHAT, fault);
    const started = Date.now();
    const { data, response } = await ask();
    expect(data.choices[0]?.message.content).toBe(recordedText);
    expect(response.headers.get('x-switchyard-provider')).toBe('backup');
    expect(response.headers.get('x-switchyard-model')).toBe('chat-backup');
    expect(response.headers.get('x-switchyard-attempts')).toBe('3');
    expect(primary.requestsTo(CHAT)).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it.each([...faults, ['malformed SSE', { chunks: ['data: {not json\n\n'] }] as [string, MockReply]])(
    '%s, streamed',
    async (_name, fault) => {
      primary.route(CHAT, fault);
      const { data: stream, response } = await askStream();
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text.length).toBeGreaterThan(100);
      expect(response.headers.get('x-switchyard-provider')).toBe('backup');
    },
  );

  it('429 with retry-after: waits, then retries the same target', async () => {
    primary.route(CHAT, [
      {
        status: 429,
        headers: { 'retry-after-ms': '100' },
        json: { error: { message: 'slow down', type: 'rate_limit_error', param: null, code: null } },
      },
      { json: testkitFixtures().json('openai/openai-text.json') },
    ]);
    const started = Date.now();
    const { response } = await ask();
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(response.headers.get('x-switchyard-provider')).toBe('primary');
    expect(response.headers.get('x-switchyard-attempts')).toBe('2');
  });

  it('never retries a client error', async () => {
    primary.route(CHAT, {
      status: 400,
      json: { error: { message: 'bad', type: 'invalid_request_error', param: 'messages', code: null } },
    });
    const error = await ask().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(primary.requestsTo(CHAT)).toHaveLength(1);
    expect(backup.requestsTo(CHAT)).toHaveLength(0);
  });
});

describe('when nothing else can serve', () => {
  it('a stall gives a clean 504 within the deadline', async () => {
    primary.route(CHAT, { hang: true });
    const started = Date.now();
    const error = (await client.chat.completions
      .create({ model: 'solo', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(504);
    expect(error.error).toMatchObject({ type: 'server_error', code: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(1600);
    await expect.poll(() => primary.requestsTo(CHAT).every((r) => r.closedByClient)).toBe(true);
  });

  it('a stream that stalls mid-way ends with an error event after the idle gap, not a hang', async () => {
    primary.route(CHAT, { chunks: sseFrames(lines.slice(0, 3)), chunkDelayMs: 10_000 });
    const res = await fetch(`${running.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'solo', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[1]!.slice(6))).toMatchObject({ error: { code: 'upstream_timeout' } });
    await expect.poll(() => primary.requestsTo(CHAT)[0]?.closedByClient).toBe(true);
  });

  it('per-request overrides bound retries and the deadline', async () => {
    primary.route(CHAT, { hang: true });
    const started = Date.now();
    const error = (await client.chat.completions
      .create(
        { model: 'solo', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-switchyard-timeout-ms': '80', 'x-switchyard-max-retries': '0' } },
      )
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(1000);
    const bad = (await client.chat.completions
      .create(
        { model: 'solo', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-switchyard-max-retries': 'many' } },
      )
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(bad.status).toBe(400);
    expect(bad.param).toBe('x-switchyard-max-retries');
  });
});

describe('cancellation', () => {
  it('a client abort mid-stream closes the upstream connection', async () => {
    primary.route(CHAT, { chunks: sseFrames(lines), chunkDelayMs: 20 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'solo', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      { signal: controller.signal },
    );
    let received = 0;
    try {
      for await (const _chunk of stream) if (++received === 3) controller.abort();
    } catch {
      // The SDK may end the iteration or throw on abort; either way the client is gone.
    }
    expect(received).toBeLessThan(lines.length);
    await expect.poll(() => primary.requestsTo(CHAT)[0]?.closedByClient).toBe(true);
  });

  it('leaves no timers or busy upstream sockets behind', async () => {
    // Its own failed and abandoned requests, so that it does not depend on the tests before it (issue #22). An idle
    // gateway holds no timer of its own (the batch runner and the files' expiry sweep start only with work).
    const connectionsBefore = primary.connections;
    primary.route(CHAT, { reset: true });
    for (let i = 0; i < 3; i++) await ask();
    primary.route(CHAT, { chunks: sseFrames(lines), chunkDelayMs: 20 });
    for (let i = 0; i < 2; i++) {
      const controller = new AbortController();
      const stream = await client.chat.completions.create(
        { model: 'solo', stream: true, messages: [{ role: 'user', content: 'hi' }] },
        { signal: controller.signal },
      );
      try {
        for await (const _chunk of stream) controller.abort();
      } catch {
        // aborted
      }
    }
    expect(primary.connections - connectionsBefore).toBeGreaterThan(4);
    await expect
      .poll(() => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length)
      .toBeLessThanOrEqual(timersBefore + 1);
    // Idle keep-alive sockets may stay open for reuse, but no connection is left per failed or abandoned request.
    await expect.poll(() => primary.openConnections).toBeLessThanOrEqual(4);
  });
});
