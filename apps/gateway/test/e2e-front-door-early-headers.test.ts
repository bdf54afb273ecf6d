import Anthropic from '@anthropic-ai/sdk';
import { type MockReply, type MockUpstream, sseFrames, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';
import { expectOpenApiStreamEvent } from './helpers/openapi-validator.js';

// Issue #22: "send headers as soon as the upstream accepted the call, so proxies do not cut a model that thinks for a
// minute" - on the Anthropic Messages and Responses front doors too (pass-through and translated), each failing in its
// own shape. Ordered by events: the mock upstream holds its first event until the client has seen a keep-alive.
const KEY = 'sk-switchyard-early-headers-0123456789';
const KEEPALIVE_MS = 50;
const fixtures = testkitFixtures();
const anthropicFrames = sseFrames(fixtures.chunkLines('anthropic/anthropic-text.chunks.txt'), 'typed');
const chatFrames = sseFrames(fixtures.chunkLines('openai/openai-text.chunks.txt'));
const responsesFrames = sseFrames(
  fixtures.chunkLines('openai/spec-examples/createresponse-streaming.chunks.txt'),
  'typed',
);

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;

beforeAll(async () => {
  upstream = await startMockUpstream();
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0, stream_keepalive_ms: ${KEEPALIVE_MS} }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${upstream.url}" }
  native: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${upstream.url}/v1", responses: native }
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${upstream.url}/v1" }
models:
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
  - { id: gpt-native, provider: native, upstream: gpt-5.4 }
  - { id: gpt-chat, provider: openai, upstream: gpt-4.1-nano }
  - { id: claude-stalls, provider: anthropic, upstream: claude-sonnet-4-5-20250929, timeouts: { first_byte_ms: 300, total_ms: 5000 } }
  - { id: gpt-native-stalls, provider: native, upstream: gpt-5.4, timeouts: { first_byte_ms: 300, total_ms: 5000 } }
routing: { max_retries: 1, backoff: { base_ms: 1, max_ms: 1 } }
`);
  origin = running.url.replace(/\/v1$/, '');
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

/** What the client received, byte for byte (the SDKs hide comments), and hooks on the way. */
interface Wire {
  text: string;
  /** Resolves when the response headers have arrived. */
  headers: Promise<void>;
  /** Resolves when a `: keep-alive` comment has arrived. */
  keptAlive: Promise<void>;
}

/** A `fetch` for the SDKs that records the raw body of each response in `wire`. */
function recordingFetch(wire: Wire): typeof fetch {
  let gotHeaders!: () => void;
  let gotKeepAlive!: () => void;
  wire.headers = new Promise((resolve) => (gotHeaders = resolve));
  wire.keptAlive = new Promise((resolve) => (gotKeepAlive = resolve));
  return async (input, init) => {
    const res = await fetch(input, init);
    gotHeaders();
    if (!res.body) return res;
    const decoder = new TextDecoder();
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          wire.text += decoder.decode(chunk, { stream: true });
          if (wire.text.includes(': keep-alive\n\n')) gotKeepAlive();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function newWire(): Wire {
  return { text: '', headers: Promise.resolve(), keptAlive: Promise.resolve() };
}

/** The route's reply: `frames`, the first held until `wait` resolves. */
const held = (frames: readonly string[], wait: () => Promise<void>): MockReply => ({
  chunks: frames,
  beforeChunk: (index) => (index === 0 ? wait() : undefined),
});
/** An attempt the upstream accepts (status and headers), then breaks off before its first event once `wait` resolves. */
const breaksOff = (frame: string, wait: () => Promise<void>): MockReply => ({
  chunks: [frame],
  resetAfterChunks: 0,
  beforeChunk: () => wait(),
});

const anthropic = (wire: Wire) =>
  new Anthropic({ baseURL: origin, apiKey: KEY, maxRetries: 0, fetch: recordingFetch(wire) });
const openai = (wire: Wire) =>
  new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0, fetch: recordingFetch(wire) });

/** Index of the first event in the raw body (`event:` or `data:` line), -1 if none. */
const firstEventAt = (text: string) => text.search(/^(event|data):/m);

/** Reads `stream` to its end: the event types seen, and what the iteration threw (undefined when it ended normally). */
async function readUntilFailure(
  stream: AsyncIterable<{ type: string }>,
): Promise<{ seen: string[]; failure: unknown }> {
  const seen: string[] = [];
  try {
    for await (const event of stream) seen.push(event.type);
    return { seen, failure: undefined };
  } catch (error) {
    return { seen, failure: error };
  }
}

describe('POST /v1/messages: early headers and keep-alive for a late first event', () => {
  it.each([
    ['passed through to Anthropic', 'claude', 'POST /v1/messages', anthropicFrames],
    ['translated from chat', 'gpt-chat', 'POST /v1/chat/completions', chatFrames],
  ])(
    '%s: headers and : keep-alive before the first event, then the normal stream',
    async (_name, model, route, frames) => {
      const wire = newWire();
      const client = anthropic(wire);
      upstream.route(
        route,
        held(frames, () => wire.keptAlive),
      );
      const { data: stream, response } = await client.messages
        .create({ model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] })
        .withResponse();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('x-switchyard-model')).toBe(model);
      const types: string[] = [];
      let text = '';
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      }
      expect(types[0]).toBe('message_start');
      expect(types.at(-1)).toBe('message_stop');
      expect(text.length).toBeGreaterThan(0);
      expect(wire.text.indexOf(': keep-alive\n\n')).toBeGreaterThanOrEqual(0);
      expect(wire.text.indexOf(': keep-alive\n\n')).toBeLessThan(firstEventAt(wire.text));
    },
  );

  it.each([
    ['passed through to Anthropic', 'claude', 'POST /v1/messages', anthropicFrames[0]!],
    ['translated from chat', 'gpt-chat', 'POST /v1/chat/completions', chatFrames[0]!],
  ])(
    '%s: every attempt breaking off after acceptance ends the stream with an Anthropic error event',
    async (_name, model, route, frame) => {
      const wire = newWire();
      const client = anthropic(wire);
      upstream.route(
        route,
        breaksOff(frame, () => wire.headers),
      );
      const before = upstream.requestsTo(route).length;
      const stream = await client.messages.create({
        model,
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      const { seen, failure } = await readUntilFailure(stream);
      expect(failure).toBeInstanceOf(Anthropic.APIError);
      expect(seen).toEqual([]);
      const last = wire.text.trim().split('\n\n').at(-1)!;
      expect(last.split('\n')[0]).toBe('event: error');
      expect(JSON.parse(last.split('\n')[1]!.replace(/^data: /, ''))).toMatchObject({
        type: 'error',
        error: { type: expect.any(String), message: expect.any(String) },
      });
      expect(wire.text).toContain(': keep-alive\n\n');
      expect(wire.text).not.toContain('message_stop');
      // routing.max_retries: 1 - the retry happened behind the keep-alive comments.
      expect(upstream.requestsTo(route).length - before).toBe(2);
    },
  );
  it('translated from chat: what the translation dropped is named in the early headers', async () => {
    const wire = newWire();
    upstream.route(
      'POST /v1/chat/completions',
      held(chatFrames, () => wire.keptAlive),
    );
    const { data: stream, response } = await anthropic(wire)
      .messages.create({
        model: 'gpt-chat',
        max_tokens: 64,
        stream: true,
        service_tier: 'auto',
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .withResponse();
    expect(response.headers.get('x-switchyard-warning')).toContain(
      "dropped_parameter: 'service_tier' applies to Anthropic models only",
    );
    for await (const _ of stream);
    expect(wire.text.indexOf(': keep-alive\n\n')).toBeLessThan(firstEventAt(wire.text));
  });
});

describe('POST /v1/responses: early headers and keep-alive for a late first event', () => {
  it.each([
    ['passed through natively', 'gpt-native', 'POST /v1/responses', responsesFrames],
    ['translated from chat', 'gpt-chat', 'POST /v1/chat/completions', chatFrames],
  ])(
    '%s: headers and : keep-alive before the first event, then the normal stream',
    async (_name, model, route, frames) => {
      const wire = newWire();
      const client = openai(wire);
      upstream.route(
        route,
        held(frames, () => wire.keptAlive),
      );
      const { data: stream, response } = await client.responses
        .create({ model, input: 'Hi', stream: true })
        .withResponse();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('x-switchyard-model')).toBe(model);
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      expect(types[0]).toBe('response.created');
      expect(types.at(-1)).toBe('response.completed');
      expect(types).toContain('response.output_text.delta');
      expect(wire.text.indexOf(': keep-alive\n\n')).toBeGreaterThanOrEqual(0);
      expect(wire.text.indexOf(': keep-alive\n\n')).toBeLessThan(firstEventAt(wire.text));
    },
  );

  it.each([
    ['passed through natively', 'gpt-native', 'POST /v1/responses', responsesFrames[0]!],
    ['translated from chat', 'gpt-chat', 'POST /v1/chat/completions', chatFrames[0]!],
  ])(
    '%s: every attempt breaking off after acceptance ends the stream with an error event (sequence_number 0) and response.failed',
    async (_name, model, route, frame) => {
      const wire = newWire();
      const client = openai(wire);
      upstream.route(
        route,
        breaksOff(frame, () => wire.headers),
      );
      const before = upstream.requestsTo(route).length;
      const stream = await client.responses.create({ model, input: 'Hi', stream: true });
      const { seen, failure } = await readUntilFailure(stream);
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect(seen).toEqual([]);
      const [error, failed] = wire.text.trim().split('\n\n').slice(-2);
      expect(error!.split('\n')[0]).toBe('event: error');
      expect(JSON.parse(error!.split('\n')[1]!.replace(/^data: /, ''))).toEqual({
        type: 'error',
        code: 'server_error',
        message: expect.any(String),
        param: null,
        sequence_number: 0,
      });
      // Then the response's end, as OpenAI sends it: Codex reads the error code there.
      expect(failed!.split('\n')[0]).toBe('event: response.failed');
      const failedEvent = JSON.parse(failed!.split('\n')[1]!.replace(/^data: /, ''));
      expect(failedEvent).toMatchObject({
        type: 'response.failed',
        sequence_number: 1,
        response: { status: 'failed', model, error: { code: 'server_error' } },
      });
      expectOpenApiStreamEvent(failedEvent);
      expect(wire.text).toContain(': keep-alive\n\n');
      expect(wire.text).not.toContain('response.completed');
      expect(upstream.requestsTo(route).length - before).toBe(2);
    },
  );
  it('translated from chat: what the translation dropped is named in the early headers', async () => {
    const wire = newWire();
    upstream.route(
      'POST /v1/chat/completions',
      held(chatFrames, () => wire.keptAlive),
    );
    const { data: stream, response } = await openai(wire)
      .responses.create({ model: 'gpt-chat', input: 'Hi', stream: true, tools: [{ type: 'web_search' }] })
      .withResponse();
    expect(response.headers.get('x-switchyard-warning')).toContain("the hosted tool 'web_search' was dropped");
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('response.completed');
    expect(wire.text.indexOf(': keep-alive\n\n')).toBeLessThan(firstEventAt(wire.text));
  });
});

describe('pass-through streams: first_byte_ms bounds the time to the first event, as for chat', () => {
  // The upstream accepts (status and headers), then never sends its first event.
  const stalls = (frame: string): MockReply => ({ chunks: [frame], beforeChunk: () => new Promise<void>(() => {}) });

  it('Anthropic Messages: each attempt times out at first_byte_ms and is retried; then an Anthropic error event', async () => {
    const wire = newWire();
    upstream.route('POST /v1/messages', stalls(anthropicFrames[0]!));
    const before = upstream.requestsTo('POST /v1/messages').length;
    const stream = await anthropic(wire).messages.create({
      model: 'claude-stalls',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const failure = await (async () => {
      for await (const _ of stream);
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'timeout_error' },
    });
    // routing.max_retries: 1 - two attempts of 300 ms, not one held until total_ms.
    expect(upstream.requestsTo('POST /v1/messages').length - before).toBe(2);
  });

  it('OpenAI Responses: each attempt times out at first_byte_ms and is retried; then an error event', async () => {
    const wire = newWire();
    upstream.route('POST /v1/responses', stalls(responsesFrames[0]!));
    const before = upstream.requestsTo('POST /v1/responses').length;
    const stream = await openai(wire).responses.create({ model: 'gpt-native-stalls', input: 'Hi', stream: true });
    const failure = await (async () => {
      for await (const _ of stream);
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(wire.text).toContain('event: error');
    expect(upstream.requestsTo('POST /v1/responses').length - before).toBe(2);
  });
});
