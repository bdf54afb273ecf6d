import type { AdapterCallContext, ChatCompletion, ChatCompletionChunk } from '@switchyard/core';
import { createFixtureReader, type MockUpstream, sseFrames, startMockUpstream } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCohere, mapCohereFinishReason } from '../src/index.js';

const fixtures = createFixtureReader(new URL('../fixtures/', import.meta.url));
const API_KEY = 'co-secret-key-123456';
let upstream: MockUpstream;
const context = (signal = new AbortController().signal): AdapterCallContext => ({
  signal,
  requestId: 'req-1',
  provider: 'cohere',
  warn: () => {},
});

beforeAll(async () => {
  upstream = await startMockUpstream({
    routes: {
      'POST /v2/chat': (request) =>
        (request.json as { stream?: boolean }).stream
          ? { chunks: sseFrames(fixtures.chunkLines('cohere-text.chunks.txt'), 'typed') }
          : { json: fixtures.json('cohere-text.json') },
    },
  });
});
afterAll(() => upstream.close());

const adapter = () => createCohere({ apiKey: API_KEY, baseURL: `${upstream.url}/v2` });

describe('Cohere adapter', () => {
  it('translates the request to Cohere v2 and the answer back to OpenAI', async () => {
    const completion = (await adapter().chatCompletions!(
      {
        model: 'command-r-plus',
        messages: [
          { role: 'developer', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Capital of ' },
              { type: 'text', text: 'France?' },
            ],
          },
        ],
        top_p: 0.5,
        stop: 'END',
        max_tokens: 20,
      },
      context(),
    )) as ChatCompletion;
    const sent = upstream.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.json).toEqual({
      model: 'command-r-plus',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ],
      p: 0.5,
      stop_sequences: ['END'],
      max_tokens: 20,
    });
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'The capital of France is Paris.' },
      finish_reason: 'stop',
    });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 507,
      completion_tokens: 10,
      total_tokens: 517,
      prompt_tokens_details: { cached_tokens: 448 },
    });
  });

  it('streams content deltas, the finish reason, then usage', async () => {
    const stream = (await adapter().chatCompletions!(
      { model: 'command-r-plus', stream: true, messages: [{ role: 'user', content: 'Capital of France?' }] },
      context(),
    )) as AsyncIterable<ChatCompletionChunk>;
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('The capital of France is Paris.');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 517 } });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it('maps finish reasons', () => {
    expect(mapCohereFinishReason('MAX_TOKENS')).toBe('length');
    expect(mapCohereFinishReason('STOP_SEQUENCE')).toBe('stop');
    expect(mapCohereFinishReason('TOOL_CALL')).toBe('tool_calls');
  });

  it('answers 400 naming the field for what Cohere cannot do here', async () => {
    await expect(
      adapter().chatCompletions!({ model: 'c', n: 2, messages: [{ role: 'user', content: 'x' }] }, context()),
    ).rejects.toMatchObject({ status: 400, param: 'n' });
    await expect(
      adapter().chatCompletions!(
        {
          model: 'c',
          messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }],
        },
        context(),
      ),
    ).rejects.toMatchObject({ status: 400, param: 'messages[0].content[0]' });
  });
});
