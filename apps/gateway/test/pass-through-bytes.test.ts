import type { MockUpstream } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// Issue #14: what an OpenAI-family upstream sends and the gateway does not change reaches the client as the upstream's
// own bytes (the extra spaces below would not survive a parse and re-serialisation); what it changes is re-encoded.
const KEY = 'sk-switchyard-bytes-0123456789';
const completion = (total: number) =>
  `{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1-nano", "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 2, "completion_tokens": 1, "total_tokens": ${total}}}`;
const chunk = (content: string, finish: string | null) =>
  `{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1-nano", "choices": [{"index": 0, "delta": {"content": "${content}"}, "finish_reason": ${finish === null ? 'null' : `"${finish}"`}}]}`;
const usageChunk =
  '{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1-nano", "choices": [], "usage": {"prompt_tokens": 2, "completion_tokens": 2, "total_tokens": 4}}';
const embeddings =
  '{"object": "list", "model": "text-embedding-3-small", "data": [{"object": "embedding", "index": 0, "embedding": [0.5, -1]}], "usage": {"prompt_tokens": 1, "total_tokens": 1}}';

// Multi-byte UTF-8, an escape the gateway would write differently, and a line break between fields.
const unicodeCompletion = completion(3).replace('"Hi"', '"Grüße, 😀 caf\\u00e9"').replace(', "usage"', ',\n "usage"');

// OpenAI's own compact form (no spaces), the one whose plain text deltas the gateway recognises without parsing them.
const compactChunk = (content: string, finish: string | null) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4.1-nano',
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });
const manyEvents = [
  compactChunk('Hel', null),
  compactChunk('lo', null),
  compactChunk(' wörld 😀', null),
  compactChunk('!', null),
  compactChunk('', 'stop'),
  usageChunk,
];
const manyReads = [manyEvents.slice(0, 3), manyEvents.slice(3, 4), [...manyEvents.slice(4), '[DONE]']].map((events) =>
  events.map((e) => `data: ${e}\n\n`).join(''),
);

let upstream: MockUpstream;
let running: RunningServer;
// "wrong total" asks for an answer whose total_tokens the gateway must correct (2 + 1, not 7).
// The upstream answers floats even when base64 is asked: the gateway converts, so it must re-encode.
useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /v1/chat/completions': (request) => {
            const body = (request.json ?? {}) as { stream?: boolean; messages?: { content?: string }[] };
            // Text deltas over three network reads: the plain ones after the first go out as the upstream's bytes.
            if (body.stream && body.messages?.[0]?.content === 'many')
              return { headers: { 'content-type': 'text/event-stream' }, chunks: manyReads };
            if (body.stream)
              return {
                headers: { 'content-type': 'text/event-stream' },
                chunks: [
                  `data: ${chunk('Hel', null)}\n\ndata: ${chunk('lo', 'stop')}\n\ndata: ${usageChunk}\n\ndata: [DONE]\n\n`,
                ],
              };
            if (body.messages?.[0]?.content === 'unicode')
              return { headers: { 'content-type': 'application/json' }, body: unicodeCompletion };
            return {
              headers: { 'content-type': 'application/json' },
              body: completion(body.messages?.[0]?.content === 'wrong total' ? 7 : 3),
            };
          },
          'POST /v1/embeddings': (request) => {
            const format = (request.json as { encoding_format?: string } | undefined)?.encoding_format;
            if ((request.json as { input?: string } | undefined)?.input === 'broken vector')
              return {
                headers: { 'content-type': 'application/json' },
                body: embeddings.replace('[0.5, -1]', '[0.5, 1..2]'),
              };
            return {
              headers: { 'content-type': 'application/json' },
              body: format === 'base64' || format === 'float' || format === undefined ? embeddings : '{}',
            };
          },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-up-000000, base_url: "${url.upstream}/v1" }
models:
  - { id: gpt-4.1-nano, provider: openai }
  - { id: text-embedding-3-small, provider: openai }
log: { level: silent }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      running,
    } = gateway),
);

const post = (path: string, body: unknown) =>
  fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('upstream bytes forwarded unchanged', () => {
  it('sends a chat completion the gateway did not change as the upstream sent it', async () => {
    const res = await post('/chat/completions', { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(completion(3));
  });

  it('sends the upstream bytes of a completion with multi-byte characters, escapes and line breaks unchanged', async () => {
    const res = await post('/chat/completions', {
      model: 'gpt-4.1-nano',
      messages: [{ role: 'user', content: 'unicode' }],
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(Buffer.from(unicodeCompletion, 'utf8'))).toBe(true);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8')).choices[0].message.content).toBe('Grüße, 😀 café');
  });

  it('re-encodes a completion whose usage the gateway corrected', async () => {
    const res = await post('/chat/completions', {
      model: 'gpt-4.1-nano',
      messages: [{ role: 'user', content: 'wrong total' }],
    });
    const text = await res.text();
    expect(text).not.toBe(completion(7));
    expect(JSON.parse(text).usage).toEqual({ prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 });
  });

  it('streams unchanged chunks as the upstream sent them, drops the usage chunk the client did not ask for, ends with [DONE]', async () => {
    const res = await post('/chat/completions', {
      model: 'gpt-4.1-nano',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(await res.text()).toBe(`data: ${chunk('Hel', null)}\n\ndata: ${chunk('lo', 'stop')}\n\ndata: [DONE]\n\n`);
  });

  it('streams runs of plain text deltas, in several reads and beyond ASCII, as the upstream sent them', async () => {
    const res = await post('/chat/completions', {
      model: 'gpt-4.1-nano',
      stream: true,
      messages: [{ role: 'user', content: 'many' }],
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(
      bytes.equals(
        Buffer.from(
          `${manyEvents
            .slice(0, 5)
            .map((e) => `data: ${e}\n\n`)
            .join('')}data: [DONE]\n\n`,
        ),
      ),
    ).toBe(true);
  });

  it('streams the usage chunk as sent when the client asked for usage', async () => {
    const res = await post('/chat/completions', {
      model: 'gpt-4.1-nano',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(await res.text()).toBe(
      `data: ${chunk('Hel', null)}\n\ndata: ${chunk('lo', 'stop')}\n\ndata: ${usageChunk}\n\ndata: [DONE]\n\n`,
    );
  });

  it('sends float embeddings as sent, and re-encodes them when it converts them to the base64 asked for', async () => {
    expect(
      await (
        await post('/embeddings', { model: 'text-embedding-3-small', input: 'x', encoding_format: 'float' })
      ).text(),
    ).toBe(embeddings);
    const converted = JSON.parse(
      await (
        await post('/embeddings', { model: 'text-embedding-3-small', input: 'x', encoding_format: 'base64' })
      ).text(),
    );
    expect(converted.data[0].embedding).toBe(Buffer.from(Float32Array.from([0.5, -1]).buffer).toString('base64'));
  });

  it('answers 502 naming the provider when a float vector is not a list of JSON numbers', async () => {
    const res = await post('/embeddings', { model: 'text-embedding-3-small', input: 'broken vector' });
    expect(res.status).toBe(502);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('upstream_invalid_response');
    expect(error.message).toContain('openai');
  });
});
