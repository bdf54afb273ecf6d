import type { AdapterCallContext, ChatCompletionChunk } from '@switchyard/core';
import { type MockUpstream, makeWav, multipartField, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAI, mapOpenAIError, switchyardProvider } from '../src/index.js';

const KEY = 'sk-openai-unit-secret-123456';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
const context = (): AdapterCallContext => ({ signal: new AbortController().signal, requestId: 'req-42', provider: 'groq', warn: () => {} });
const adapter = () => createOpenAI({ apiKey: KEY, baseURL: `${upstream.url}/openai/v1/`, organization: 'org-1', headers: { 'x-extra': 'yes' } });

beforeAll(async () => {
  upstream = await startMockUpstream();
});
beforeEach(() => upstream.clear());
afterAll(() => upstream.close());

describe('OpenAI-compatible adapter', () => {
  it('passes unknown request fields through, with auth, organization, extra headers and the request id', async () => {
    upstream.route('POST /openai/v1/chat/completions', { json: fixtures.json('openai/openai-text.json') });
    await adapter().chatCompletions!({ model: 'llama-3.3', messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'low', some_future_param: [1] }, context());
    const sent = upstream.requests[0]!;
    expect(sent.json).toMatchObject({ reasoning_effort: 'low', some_future_param: [1] });
    expect(sent.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'openai-organization': 'org-1', 'x-extra': 'yes', 'x-request-id': 'req-42' });
  });

  it('throws 502 when a stream ends before [DONE] without a finish_reason', async () => {
    const lines = fixtures.chunkLines('openai/openai-text.chunks.txt').slice(0, 5);
    upstream.route('POST /openai/v1/chat/completions', { chunks: lines.map((l) => `data: ${l}\n\n`) });
    const stream = (await adapter().chatCompletions!({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }, context())) as AsyncIterable<ChatCompletionChunk>;
    await expect((async () => { for await (const _ of stream); })()).rejects.toMatchObject({ status: 502, code: 'upstream_invalid_response' });
  });

  it('throws the error of a mid-stream error event', async () => {
    const [first] = fixtures.chunkLines('openai/openai-text.chunks.txt');
    upstream.route('POST /openai/v1/chat/completions', { chunks: [`data: ${first}\n\n`, 'data: {"error":{"message":"The server had an error","type":"server_error"}}\n\n'] });
    const stream = (await adapter().chatCompletions!({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }, context())) as AsyncIterable<ChatCompletionChunk>;
    const seen: unknown[] = [];
    await expect((async () => { for await (const chunk of stream) seen.push(chunk); })()).rejects.toMatchObject({ message: 'The server had an error', type: 'server_error' });
    expect(seen).toHaveLength(1);
  });

  it('forwards the transcription file as multipart and returns text formats as text', async () => {
    const recorded = fixtures.json<{ headers: Record<string, string>; body: string }>('openai/groq-transcription-text.json');
    upstream.route('POST /openai/v1/audio/transcriptions', { headers: recorded.headers, body: recorded.body });
    const wav = makeWav();
    const result = await adapter().transcriptions!(
      { model: 'whisper-large-v3', response_format: 'text', 'timestamp_granularities[]': ['word', 'segment'], file: { data: wav, filename: 'a.wav', contentType: 'audio/wav' } },
      context(),
    );
    expect(result).toEqual({ kind: 'text', contentType: recorded.headers['content-type'], body: recorded.body });
    const sent = upstream.requests[0]!;
    expect(multipartField(sent, 'model')).toBe('whisper-large-v3');
    expect(sent.bodyText.match(/name="timestamp_granularities\[\]"/g)).toHaveLength(2);
    expect(sent.bodyText).toContain('filename="a.wav"');
    expect(sent.body.includes(wav)).toBe(true);
  });

  it('pipes speech bytes with the upstream content type', async () => {
    const audio = makeWav({ durationMs: 100 });
    upstream.route('POST /openai/v1/audio/speech', { headers: { 'content-type': 'audio/mpeg' }, chunks: [audio.subarray(0, 100), audio.subarray(100)], chunkDelayMs: 10 });
    const result = await adapter().speech!({ model: 'tts-1', input: 'hi', voice: 'alloy' }, context());
    expect(result.contentType).toBe('audio/mpeg');
    const parts: Uint8Array[] = [];
    for await (const part of result.body) parts.push(part);
    expect(Buffer.concat(parts).equals(audio)).toBe(true);
  });

  it('lists the upstream models', async () => {
    upstream.route('GET /openai/v1/models', { json: { object: 'list', data: [fixtures.json('openai/spec-examples/retrievemodel-default.json')] } });
    expect(await adapter().listModels!(context())).toEqual([{ id: 'VAR_chat_model_id', created: 1686935002 }]);
  });
});

describe('mapOpenAIError', () => {
  it('keeps status, message, type, param and code; 529 becomes 503; retry-after is kept; the key is redacted', () => {
    const body = JSON.stringify({ error: { message: `Invalid key ${KEY}`, type: 'invalid_request_error', param: 'model', code: 'bad' } });
    const error = mapOpenAIError('openai', 401, body, { 'retry-after': '3' }, [KEY]);
    expect(error.toJSON()).toEqual({ error: { message: 'Invalid key [REDACTED]', type: 'invalid_request_error', param: 'model', code: 'bad' } });
    expect(error.headers['retry-after']).toBe('3');
    expect(mapOpenAIError('x', 529, '{"error":{"message":"Overloaded"}}', {}, []).status).toBe(503);
  });

  it('handles bodies that are not OpenAI-shaped', () => {
    expect(mapOpenAIError('ollama', 404, '{"error":"model not found"}', {}, []).toJSON().error).toMatchObject({ message: 'model not found', type: 'not_found_error' });
    expect(mapOpenAIError('vllm', 500, 'Internal Server Error', {}, []).toJSON().error.message).toContain('HTTP 500');
  });
});

describe('switchyardProvider', () => {
  it('validates snake_case settings and is enabled by OPENAI_API_KEY', () => {
    expect(switchyardProvider.apiKeyEnv).toEqual(['OPENAI_API_KEY']);
    expect(switchyardProvider.settingsSchema.safeParse({ api_key: 'k', base_url: 'http://localhost:11434/v1' }).success).toBe(true);
    expect(switchyardProvider.settingsSchema.safeParse({ base_url: 'not a url' }).success).toBe(false);
    expect(switchyardProvider.settingsSchema.safeParse({ apiKey: 'camel' }).success).toBe(false);
  });
});
