import { type MockUpstream, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';
import { createAdminKey } from './helpers/admin-keys.js';

// Issue #14, streams: an OpenAI-family upstream's chat stream reaches the client as the upstream's own event text
// (the plain text deltas are not even parsed), except the usage chunk the gateway asked for and the client did not;
// usage is still booked, and a bad or broken upstream stream still ends with an error event, never with [DONE].
const MASTER = 'sk-master-key-for-stream-bytes-0123';
const UPSTREAM_KEY = 'sk-up-stream-bytes-secret-000000';
const lines = testkitFixtures().chunkLines('openai/openai-text.chunks.txt');
const usageLine = lines.at(-1)!;
const usage = JSON.parse(usageLine).usage as { prompt_tokens: number; completion_tokens: number; total_tokens: number };
const textLines = lines.slice(0, -1);
const recordedText = textLines
  .map((line) => (JSON.parse(line).choices[0]?.delta?.content as string | undefined) ?? '')
  .join('');
const frames = (payloads: readonly string[]) => payloads.map((p) => `data: ${p}\n\n`);
// The recorded stream, cut into network writes that split events (and one event's JSON) in the middle.
const splitEvery = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
const recordedStream = splitEvery([...frames(lines), 'data: [DONE]\n\n'].join(''), 7_000);
const plainChunk = (content: string) =>
  textLines[5]!.replace(/"content":"[^"]*"/, `"content":${JSON.stringify(content)}`);

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;
let nextReply: { chunks: string[]; resetAfterChunks?: number } = { chunks: recordedStream };
beforeAll(async () => {
  upstream = await startMockUpstream({
    routes: { 'POST /v1/chat/completions': () => ({ headers: { 'content-type': 'text/event-stream' }, ...nextReply }) },
  });
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: ${UPSTREAM_KEY}, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4.1-nano-2025-04-14, provider: openai, price: { input: 2, output: 8 } }
routing: { max_retries: 0 }
log: { level: silent }
`);
  origin = running.url.replace(/\/v1$/, '');
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

const newKey = (name: string) => createAdminKey(origin, MASTER, { name });
const bookedUsage = async (id: string) => {
  const res = await fetch(`${origin}/admin/usage?key=${id}`, { headers: { authorization: `Bearer ${MASTER}` } });
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
};
const rawStream = async (key: string, extra: Record<string, unknown> = {}) => {
  const res = await fetch(`${running.url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4.1-nano-2025-04-14',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
      ...extra,
    }),
  });
  expect(res.status).toBe(200);
  return res.text();
};
const openai = (key: string) => new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
const streamWithSdk = (key: string, extra: Record<string, unknown> = {}) =>
  openai(key).chat.completions.create({
    model: 'gpt-4.1-nano-2025-04-14',
    stream: true,
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  });

describe('streamed chat: upstream bytes passed through', () => {
  it("forwards every chunk as the upstream's bytes, without the usage chunk the client did not ask for, and books that usage", async () => {
    nextReply = { chunks: recordedStream };
    const { id, key } = await newKey('bytes');
    expect(await rawStream(key)).toBe([...frames(textLines), 'data: [DONE]\n\n'].join(''));
    // What the official SDK shows: the recorded text, no usage.
    nextReply = { chunks: recordedStream };
    const chunks = [];
    for await (const chunk of await streamWithSdk(key)) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(recordedText);
    expect(chunks.some((c) => c.usage)).toBe(false);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    // The two streams' usage is booked all the same.
    await expect
      .poll(() => bookedUsage(id))
      .toEqual([
        expect.objectContaining({
          requests: 2,
          prompt_tokens: 2 * usage.prompt_tokens,
          completion_tokens: 2 * usage.completion_tokens,
          total_tokens: 2 * usage.total_tokens,
        }),
      ]);
  });

  it('sends the usage chunk as the upstream sent it to a client that asked for stream_options.include_usage', async () => {
    nextReply = { chunks: recordedStream };
    const { key } = await newKey('include-usage');
    expect(await rawStream(key, { stream_options: { include_usage: true } })).toBe(
      [...frames(lines), 'data: [DONE]\n\n'].join(''),
    );
    nextReply = { chunks: recordedStream };
    const chunks = [];
    for await (const chunk of await streamWithSdk(key, { stream_options: { include_usage: true } })) chunks.push(chunk);
    expect(chunks.at(-1)?.usage).toEqual(JSON.parse(usageLine).usage);
  });

  it('ends with an error event naming the provider when an event that looks like a text delta is not valid JSON', async () => {
    const { key } = await newKey('malformed');
    for (const bad of [
      plainChunk('ok').replace('"content":"ok"', '"content":"bad \\q escape"'),
      plainChunk('ok').replace('"content":"ok"', '"content":"raw \u0001 control"'),
      plainChunk('ok').slice(0, -2),
    ]) {
      nextReply = { chunks: frames([...textLines.slice(0, 10), bad, ...textLines.slice(10)]) };
      const text = await rawStream(key);
      expect(text.startsWith(frames(textLines.slice(0, 10)).join(''))).toBe(true);
      expect(text).not.toContain('[DONE]');
      const last = JSON.parse(text.trimEnd().split('\n\n').at(-1)!.slice('data: '.length));
      expect(last.error).toMatchObject({
        code: 'upstream_invalid_response',
        message: expect.stringContaining("'openai'"),
      });
    }
    nextReply = {
      chunks: frames([
        ...textLines.slice(0, 10),
        plainChunk('x').replace('"content":"x"', '"content":"\\q"'),
        'data: [DONE]',
      ]),
    };
    const sdkRead = async () => {
      for await (const _chunk of await streamWithSdk(key));
    };
    await expect(sdkRead()).rejects.toThrow(/'openai' sent an invalid response/);
  });

  it("ends with the upstream's error event, its key redacted, when the upstream fails mid-stream", async () => {
    const { key } = await newKey('error-event');
    const upstreamError = JSON.stringify({
      error: { message: `Overloaded (key ${UPSTREAM_KEY})`, type: 'server_error', code: 'overloaded' },
    });
    nextReply = { chunks: frames([...textLines.slice(0, 20), upstreamError]) };
    const text = await rawStream(key);
    expect(text.startsWith(frames(textLines.slice(0, 20)).join(''))).toBe(true);
    expect(text).not.toContain('[DONE]');
    expect(text).not.toContain(UPSTREAM_KEY);
    const last = JSON.parse(text.trimEnd().split('\n\n').at(-1)!.slice('data: '.length));
    expect(last.error).toMatchObject({
      code: 'overloaded',
      type: 'server_error',
      message: expect.stringContaining('Overloaded'),
    });
  });

  it('ends a stream whose upstream connection breaks with an error event, not [DONE], and books it as failed', async () => {
    const { id, key } = await newKey('cut');
    nextReply = { chunks: frames(textLines), resetAfterChunks: 30 };
    const text = await rawStream(key);
    expect(text.startsWith(frames(textLines.slice(0, 30)).join(''))).toBe(true);
    expect(text).not.toContain('[DONE]');
    expect(JSON.parse(text.trimEnd().split('\n\n').at(-1)!.slice('data: '.length)).error).toMatchObject({
      type: 'server_error',
    });
    nextReply = { chunks: frames(textLines), resetAfterChunks: 30 };
    const sdkRead = async () => {
      for await (const _chunk of await streamWithSdk(key));
    };
    await expect(sdkRead()).rejects.toThrow();
    const statuses = async () => {
      const res = await fetch(`${origin}/admin/usage?key=${id}&group_by=status`, {
        headers: { authorization: `Bearer ${MASTER}` },
      });
      return ((await res.json()) as { data: { group: string; requests: number }[] }).data;
    };
    // Usage-less, so the rows wait for the token count: 0.8-2.8 s at load average 20 (the default poll gives up at 1 s).
    await expect.poll(statuses, { timeout: 10_000 }).toEqual([expect.objectContaining({ group: '502', requests: 2 })]);
  });
});
