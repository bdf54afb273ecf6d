import type { AdapterCallContext, ChatCompletion, ChatCompletionChunk } from '@switchyard/core';
import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { collectChunks } from '@switchyard/testkit/conformance';
import { describe, expect, it } from 'vitest';
import { createGoogle, decodeToolCallSignature, mapGeminiError, mapGeminiFinishReason } from '../src/index.js';

const KEY = 'AIza-google-unit-secret-1234';
const fixtures = testkitFixtures();
const GENERATE = 'POST /v1beta/models/*:generateContent';
const STREAM = 'POST /v1beta/models/*:streamGenerateContent';
const upstream = useMockUpstream({ clearBetweenTests: true });
const context = (): AdapterCallContext => ({
  signal: new AbortController().signal,
  requestId: 'req-1',
  provider: 'google',
  warn: () => {},
});
const adapter = () => createGoogle({ apiKey: KEY, baseURL: `${upstream.url}/v1beta` });
const ask = (extra: Record<string, unknown> = {}) =>
  adapter().chatCompletions!(
    { model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'How many r in strawberry?' }], ...extra },
    context(),
  );

describe('Gemini chat', () => {
  it('sends the key in x-goog-api-key only, and translates the answer and usage (thoughts count as completion)', async () => {
    upstream.route(GENERATE, { json: fixtures.json('google/google-text.json') });
    const completion = (await ask()) as ChatCompletion;
    const sent = upstream.requests[0]!;
    expect(sent.path).toBe('/v1beta/models/gemini-3-pro-preview:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe(KEY);
    expect(JSON.stringify(sent.query)).not.toContain(KEY);
    expect(completion.choices[0]).toMatchObject({
      message: { content: expect.stringContaining('3** r') },
      finish_reason: 'stop',
    });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 9,
      completion_tokens: 272,
      total_tokens: 281,
      completion_tokens_details: { reasoning_tokens: 244 },
    });
  });

  it('turns functionCall parts into tool_calls with generated ids that carry the signature', async () => {
    upstream.route(GENERATE, { json: fixtures.json('google/google-tool-call.json') });
    const completion = (await ask()) as ChatCompletion;
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({
      type: 'function',
      function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
    });
    expect(decodeToolCallSignature(call.id)).toMatch(/^EskgCsYg/);
  });

  it('maps SAFETY to content_filter and a blocked prompt to a 400', async () => {
    upstream.route(GENERATE, { json: fixtures.json('google/unary-failure-finish-reason-safety.json') });
    expect(((await ask()) as ChatCompletion).choices[0]!.finish_reason).toBe('content_filter');
    upstream.route(STREAM, { body: fixtures.text('google/streaming-failure-prompt-blocked-safety.txt') });
    const stream = (await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>;
    await expect(collectChunks(stream)).rejects.toMatchObject({
      status: 400,
      code: 'content_filter',
      message: expect.stringContaining('SAFETY'),
    });
  });

  it('streams text with alt=sse, then usage', async () => {
    upstream.route(STREAM, { chunks: sseFrames(fixtures.chunkLines('google/google-text.chunks.txt'), 'gemini') });
    const assembled = await collectChunks((await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>);
    expect(upstream.requests[0]!.query).toEqual({ alt: 'sse' });
    expect(assembled.chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(assembled.content).toMatch(/^There are \*\*3\*\*/);
    expect(assembled.finishReasons).toEqual(['stop']);
    expect(assembled.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 208, total_tokens: 217 });
  });

  it('replays a raw Firebase stream body byte for byte', async () => {
    upstream.route(STREAM, { body: fixtures.text('google/streaming-success-basic-reply-short.txt') });
    const assembled = await collectChunks((await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>);
    expect(assembled.content).toContain('Cheyenne');
    expect(assembled.usage?.total_tokens).toBe(17);
  });

  it('streams function calls as tool_calls and finishes with tool_calls', async () => {
    upstream.route(STREAM, { chunks: sseFrames(fixtures.chunkLines('google/google-tool-call.chunks.txt'), 'gemini') });
    const assembled = await collectChunks((await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>);
    const calls = assembled.chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      index: 0,
      type: 'function',
      function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
    });
    expect(assembled.finishReasons).toEqual(['tool_calls']);
  });

  it('throws an error object that arrives inside the stream', async () => {
    const [first] = fixtures.chunkLines('google/google-text.chunks.txt');
    upstream.route(STREAM, {
      chunks: [
        `data: ${first}\r\n\r\n`,
        `data: ${JSON.stringify(fixtures.json('google/google-429-retry-info.json'))}\r\n\r\n`,
      ],
    });
    const stream = (await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>;
    await expect(collectChunks(stream)).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('quota'),
    });
  });

  it('gives n choices from candidateCount', async () => {
    const one = fixtures.json<{ candidates: Record<string, unknown>[] }>('google/google-text.json');
    upstream.route(GENERATE, {
      json: {
        ...one,
        candidates: [
          { ...one.candidates[0], index: 0 },
          { ...one.candidates[0], index: 1 },
        ],
      },
    });
    const completion = (await ask({ n: 2 })) as ChatCompletion;
    expect(
      (upstream.requests[0]!.json as { generationConfig: { candidateCount: number } }).generationConfig.candidateCount,
    ).toBe(2);
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1]);
  });
});

describe('Gemini embeddings, models, errors', () => {
  it('embeds a batch in one batchEmbedContents call, keeping order and dimensions', async () => {
    upstream.route('POST /v1beta/models/*:batchEmbedContents', {
      json: fixtures.json('google/google-batch-embed.json'),
    });
    const response = await adapter().embeddings!(
      { model: 'text-embedding-004', input: ['a', 'b'], dimensions: 5 },
      context(),
    );
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.json).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] }, outputDimensionality: 5 },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] }, outputDimensionality: 5 },
      ],
    });
    expect(response.data.map((d) => d.index)).toEqual([0, 1]);
    expect(response.data[1]!.embedding).toEqual([-0.0027, 0.0213, -0.0384, 0.0066, 0.0514]);
  });

  it('lists models without the models/ prefix', async () => {
    upstream.route('GET /v1beta/models', { json: fixtures.json('google/google-models.json') });
    expect((await adapter().listModels!(context())).map((m) => m.id)).toEqual([
      'gemini-2.5-flash',
      'text-embedding-004',
    ]);
  });

  it('reports `thinking` from the model list as the reasoning capability, and nothing where the list says nothing', async () => {
    upstream.route('GET /v1beta/models', { json: fixtures.json('google/google-models.json') });
    const [flash, embedding] = await adapter().listModels!(context());
    expect(flash!.capabilities).toEqual({ known: ['reasoning'], supported: ['reasoning'] });
    expect(embedding!.capabilities).toBeUndefined();
  });

  it('maps errors: status kept, invalid key -> 401, RetryInfo -> retry-after-ms, details never passed on', () => {
    const notFound = mapGeminiError('google', 404, fixtures.text('google/unary-failure-unknown-model.json'), {}, [KEY]);
    expect(notFound.toJSON().error).toMatchObject({
      type: 'invalid_request_error',
      code: 'not_found',
      message: expect.stringContaining('is not found'),
    });
    expect(notFound.status).toBe(404);
    const badKey = mapGeminiError('google', 400, fixtures.text('google/unary-failure-api-key.json'), {}, [KEY]);
    expect(badKey.status).toBe(401);
    expect(JSON.stringify(badKey.toJSON())).not.toContain('key1234');
    const quota = mapGeminiError('google', 429, fixtures.text('google/google-429-retry-info.json'), {}, [KEY]);
    expect(quota.headers['retry-after-ms']).toBe('34400');
  });

  it('maps finish reasons', () => {
    expect(
      ['STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII'].map((r) =>
        mapGeminiFinishReason(r, false),
      ),
    ).toEqual([
      'stop',
      'length',
      'content_filter',
      'content_filter',
      'content_filter',
      'content_filter',
      'content_filter',
    ]);
    expect(mapGeminiFinishReason('STOP', true)).toBe('tool_calls');
  });
});
