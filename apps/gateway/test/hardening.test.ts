import { type MockUpstream, openaiReplayRoutes, sseFrames, testkitFixtures } from '@switchyard/testkit';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { requestScope } from '../src/http/request-scope.js';
import { unhandledRejectionLogger } from '../src/log-unexpected-failures.js';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// Regression tests of issue #22 that are not attacks: timeouts that did not apply, silent drops, honest 400s.
const KEY = 'sk-switchyard-hardening-0123456789';
const lines = testkitFixtures().chunkLines('openai/openai-text.chunks.txt');
// The first event, then the rest once the client has seen a keep-alive comment (see the keep-alive test).
const frames = sseFrames(lines);
const twoWrites = [frames[0]!, frames.slice(1).join('')];
let sawKeepAlive!: () => void;
const keptAlive = new Promise<void>((resolve) => (sawKeepAlive = resolve));
let upstream: MockUpstream;
let hung: MockUpstream;
let running: RunningServer;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: { routes: openaiReplayRoutes() },
      hung: {
        routes: {
          'GET /v1/models': { hang: true },
          'POST /v1/audio/speech': {
            headers: { 'content-type': 'audio/wav' },
            chunks: ['RIFF', ...Array.from({ length: 50 }, () => 'x'.repeat(1000))],
            chunkDelayMs: 100,
          },
          'POST /v1/chat/completions': {
            chunks: twoWrites,
            beforeChunk: (index) => (index === 1 ? keptAlive : undefined),
          },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0, stream_keepalive_ms: 100 }
providers:
  openai: { adapter: openai, api_key: sk-up-000000, base_url: "${url.upstream}/v1" }
  slow: { adapter: openai, api_key: sk-up-000000, base_url: "${url.hung}/v1", stream_usage: false }
  google: { adapter: google, api_key: gm-up-000000, base_url: "${url.upstream}/v1beta" }
  claude: { adapter: anthropic, api_key: sk-ant-000000, base_url: "${url.upstream}", max_n: 2 }
models:
  - { id: tts-slow, provider: slow, upstream: tts-1, timeouts: { total_ms: 1000 } }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream, hung },
      running,
    } = gateway),
);

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${running.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('timeouts that apply', () => {
  it('GET /v1/models leaves a hung provider out after its own deadline, with a warning', async () => {
    // The deadline is 10 s by default: a catalog over the same router with a shorter one, which the hung provider
    // never answers within, and the loopback ones do even on a loaded machine (200 ms once left `openai` out in a run
    // of 35 test files at once).
    const { ModelCatalog } = await import('@switchyard/core');
    const catalog = new ModelCatalog(running.gateway.router, 60_000, undefined, { timeoutMs: 1_500 });
    const client = new AbortController();
    const { list, warnings } = await catalog.listWithWarnings({ signal: client.signal, requestId: 'r' });
    expect(warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'provider_unavailable', param: 'slow' })]),
    );
    expect(list.data.some((m) => m.id.startsWith('openai/'))).toBe(true);
    // A client that leaves does not abort the cached fetch for the others.
    const leaving = new AbortController();
    const pending = catalog.listWithWarnings({ signal: leaving.signal, requestId: 'r2' });
    leaving.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
    expect(
      (await catalog.list({ signal: client.signal, requestId: 'r3' })).data.some((m) => m.id.startsWith('openai/')),
    ).toBe(true);
  });

  it('ends speech audio at the model total_ms instead of streaming past it', async () => {
    const res = await call('POST', '/audio/speech', { model: 'tts-slow', voice: 'alloy', input: 'hi' });
    expect(res.status).toBe(200);
    const read = await res.arrayBuffer().then(
      (b) => b.byteLength,
      () => -1,
    );
    // 50 chunks 100 ms apart take 5 s; the 1 s deadline cuts the body (an error, or far fewer bytes).
    expect(read === -1 || read < 30_000).toBe(true);
  });

  it('sends : keep-alive comments while a stream is idle, and does not ask a stream_usage: false provider for usage', async () => {
    const res = await call('POST', '/chat/completions', {
      model: 'slow/gpt-4.1-nano',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    // The upstream holds the rest of its stream until the client has seen a keep-alive comment: without one, it hangs.
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      text += decoder.decode(next.value);
      if (text.includes(': keep-alive\n\n')) sawKeepAlive();
    }
    expect(text).toContain(': keep-alive\n\n');
    expect(text).toContain('data: [DONE]');
    expect(
      (hung.requestsTo('POST /v1/chat/completions').at(-1)!.json as { stream_options?: unknown }).stream_options,
    ).toBeUndefined();
  }, 20_000);
});

describe('honest errors and reported drops', () => {
  it('Gemini reports the parameters it drops in x-switchyard-warning and refuses logit_bias', async () => {
    upstream.route('POST /v1beta/models/*:generateContent', {
      json: testkitFixtures().json('google/google-text.json'),
    });
    const res = await call('POST', '/chat/completions', {
      model: 'google/gemini-2.0-flash',
      user: 'u1',
      parallel_tool_calls: false,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(200);
    const warning = res.headers.get('x-switchyard-warning') ?? '';
    expect(warning).toContain("'user' is not supported by provider 'google'");
    expect(warning).toContain("'parallel_tool_calls'");
    const refused = await call('POST', '/chat/completions', {
      model: 'google/gemini-2.0-flash',
      logit_bias: { '50256': -100 },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { param: string } }).error.param).toBe('logit_bias');
  });

  it('Anthropic refuses n above max_n with 400 naming n, before calling the upstream', async () => {
    upstream.clear();
    const res = await call('POST', '/chat/completions', {
      model: 'claude/claude-sonnet-4-5',
      n: 3,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('n');
    expect(upstream.requestsTo('POST /v1/messages')).toHaveLength(0);
  });

  it.each([
    ['no boundary', 'multipart/form-data', 'hello'],
    [
      'a malformed part header',
      'multipart/form-data; boundary=XX',
      '--XX\r\nContent-Disposition form-data\r\n\r\nx\r\n--XX--\r\n',
    ],
    [
      'a form cut short',
      'multipart/form-data; boundary=XX',
      '--XX\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper',
    ],
  ])('answers 400 invalid_multipart for a form with %s', async (_name, type, body) => {
    const res = await fetch(`${running.url}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': type },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_multipart');
  });

  it('names an over-long form field as a field, not a file', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('prompt', 'x'.repeat(1024 * 1024 + 10));
    form.append('file', new Blob([new Uint8Array(10)], { type: 'audio/wav' }), 'a.wav');
    const res = await fetch(`${running.url}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    expect(res.status).toBe(413);
    const { error } = (await res.json()) as { error: { code: string; param: string } };
    expect(error).toMatchObject({ code: 'field_too_large', param: 'prompt' });
  });
});

describe('unexpected failures', () => {
  it('logs an unhandled rejection with the request id it came from instead of ending the process', async () => {
    const lines: string[] = [];
    const onRejection = unhandledRejectionLogger(
      pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }),
      ['sk-secret-value-123456'],
    );
    // What Node calls for a rejection nobody handled, from inside a request (the CLI installs it on process).
    await requestScope.run('req-42', async () => {
      await Promise.resolve();
      onRejection(new Error('boom with sk-secret-value-123456'));
    });
    const line = JSON.parse(lines[0]!) as { request_id: string; err: { message: string }; msg: string };
    expect(line).toMatchObject({ request_id: 'req-42', msg: 'unhandled rejection' });
    expect(line.err.message).toBe('boom with [REDACTED]');
  });
});
