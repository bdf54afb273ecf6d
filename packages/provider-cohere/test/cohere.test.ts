import type {
  AdapterCallContext,
  ChatCompletion,
  ChatCompletionChunk,
  GatewayError,
  GatewayWarning,
} from '@switchyard/core';
import {
  type MockUpstream,
  countingUpstream,
  createFixtureReader,
  sseFrames,
  startMockUpstream,
} from '@switchyard/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCohere, switchyardProvider } from '../src/index.js';

const KEY = 'co-secret-key-0123456789abcdef';
const fixtures = createFixtureReader(new URL('../fixtures/', import.meta.url));
let upstream: MockUpstream;
let warnings: GatewayWarning[];
const context = (): AdapterCallContext => ({
  signal: new AbortController().signal,
  requestId: 'r1',
  provider: 'cohere',
  warn: (w) => warnings.push(w),
});
const adapter = (inputType?: string) => createCohere({ apiKey: KEY, baseURL: upstream.url, inputType });
const TOOLS = [
  {
    type: 'function' as const,
    function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
  },
  {
    type: 'function' as const,
    function: { name: 'cityAttractions', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
];

beforeAll(async () => {
  upstream = await startMockUpstream();
});
beforeEach(() => {
  upstream.clear();
  warnings = [];
});
afterAll(() => upstream.close());

describe('Cohere chat with tools', () => {
  it('sends tools, tool calls and tool results, and answers the recorded tool calls', async () => {
    upstream.route('POST /v2/chat', { json: fixtures.json('cohere/cohere-tool-call.json') });
    const completion = (await adapter().chatCompletions!(
      {
        model: 'command-a-03-2025',
        tools: TOOLS,
        tool_choice: 'required',
        user: 'u1',
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"location":"Paris"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'And SF?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            ],
          },
        ],
      },
      context(),
    )) as ChatCompletion;
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [
          {
            id: 'weather_dqgshstja6p9',
            type: 'function',
            function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
          },
          {
            id: 'cityAttractions_dcxfx4myvx68',
            type: 'function',
            function: { name: 'cityAttractions', arguments: '{"city":"San Francisco"}' },
          },
        ],
      },
    });
    expect(completion.usage).toEqual({ prompt_tokens: 119, completion_tokens: 52, total_tokens: 171 });
    const sent = upstream.requests[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.json).toMatchObject({
      tools: TOOLS,
      tool_choice: 'REQUIRED',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"location":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And SF?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
    });
    expect(warnings).toEqual([expect.objectContaining({ param: 'user' })]);
  });

  it('streams the recorded tool calls as OpenAI deltas with index, id, name and argument fragments', async () => {
    upstream.route('POST /v2/chat', {
      chunks: sseFrames(fixtures.chunkLines('cohere/cohere-tool-call.chunks.txt'), 'typed'),
    });
    const stream = (await adapter().chatCompletions!(
      { model: 'command-a-03-2025', tools: TOOLS, stream: true, messages: [{ role: 'user', content: 'x' }] },
      context(),
    )) as AsyncIterable<ChatCompletionChunk>;
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[delta.index] ??= { arguments: '' };
        if (delta.id) calls[delta.index]!.id = delta.id;
        if (delta.function?.name) calls[delta.index]!.name = delta.function.name;
        calls[delta.index]!.arguments += delta.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(calls).toEqual([
      { id: 'weather_e8p4pn45zt0t', name: 'weather', arguments: '{"location": "San Francisco"}' },
      { id: 'cityAttractions_pyxssbwnq9fq', name: 'cityAttractions', arguments: '{"city": "San Francisco"}' },
    ]);
    expect(finish).toBe('tool_calls');
  });

  it('rejects a named tool_choice and n > 1 with a 400 naming them', async () => {
    for (const [extra, param] of [
      [{ tool_choice: { type: 'function', function: { name: 'weather' } } }, 'tool_choice'],
      [{ n: 2 }, 'n'],
    ] as const) {
      const error = (await adapter().chatCompletions!(
        { model: 'm', tools: TOOLS, messages: [{ role: 'user', content: 'x' }], ...extra },
        context(),
      ).catch((e: unknown) => e)) as GatewayError;
      expect([error.status, error.toJSON().error.param]).toEqual([400, param]);
    }
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('Cohere embeddings', () => {
  it('sends input_type (request, else configured, else search_document) and float embedding types', async () => {
    upstream.route('POST /v2/embed', { json: fixtures.json('cohere/cohere-embedding.json') });
    const response = await adapter().embeddings!(
      { model: 'embed-v4.0', input: ['sunny day at the beach', 'rainy day in the city'], dimensions: 256 },
      context(),
    );
    expect(response.data[1]!.embedding).toEqual([-0.04660034, 0.00037765503, -0.061157227, -0.08239746, -0.010360718]);
    expect(response.usage).toEqual({ prompt_tokens: 10, total_tokens: 10 });
    expect(upstream.requests[0]!.json).toEqual({
      model: 'embed-v4.0',
      texts: ['sunny day at the beach', 'rainy day in the city'],
      input_type: 'search_document',
      embedding_types: ['float'],
      output_dimension: 256,
    });
    await adapter('clustering').embeddings!({ model: 'embed-v4.0', input: 'x' }, context());
    expect((upstream.requests[1]!.json as { input_type: string }).input_type).toBe('clustering');
    await adapter('clustering').embeddings!(
      { model: 'embed-v4.0', input: 'x', input_type: 'search_query' } as never,
      context(),
    );
    expect((upstream.requests[2]!.json as { input_type: string }).input_type).toBe('search_query');
    const error = (await adapter().embeddings!(
      { model: 'embed-v4.0', input: 'x', input_type: 'nope' } as never,
      context(),
    ).catch((e: unknown) => e)) as GatewayError;
    expect([error.status, error.toJSON().error.param]).toEqual([400, 'input_type']);
  });

  it('is enabled by COHERE_API_KEY and validates input_type in config', () => {
    expect(switchyardProvider.apiKeyEnv).toEqual(['COHERE_API_KEY', 'CO_API_KEY']);
    expect(switchyardProvider.settingsSchema.safeParse({ api_key: 'k', input_type: 'search_query' }).success).toBe(
      true,
    );
    expect(switchyardProvider.settingsSchema.safeParse({ api_key: 'k', input_type: 'nope' }).success).toBe(false);
  });
});

describe('Cohere upstream settings', () => {
  it("calls through the gateway's dispatcher and answers 502 naming the provider and its body limit for an oversize answer", async () => {
    upstream.route('POST /v2/chat', {
      json: { ...fixtures.json<Record<string, unknown>>('cohere/cohere-tool-call.json'), filler: 'x'.repeat(5000) },
    });
    const counting = countingUpstream({ maxResponseBytes: 1000 });
    const error = (await adapter().chatCompletions!(
      { model: 'command-a-03-2025', messages: [{ role: 'user', content: 'hi' }] },
      { ...context(), upstream: counting.upstream },
    ).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    expect(error.message).toContain("'cohere'");
    expect(error.message).toContain('1000 byte limit (providers.cohere.limits.max_response_bytes)');
    expect(counting.dispatched).toBe(1);
  });
});

describe('Cohere parameters', () => {
  it('warns about every field it does not translate, unknown ones included, and refuses audio output', async () => {
    upstream.route('POST /v2/chat', { json: fixtures.json('cohere/cohere-tool-call.json') });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await adapter().chatCompletions!(
      {
        model: 'command-a-03-2025',
        messages,
        prediction: { type: 'content', content: 'x' },
        x_future_parameter: 1,
      } as never,
      context(),
    );
    expect(warnings.map((w) => [w.code, w.param])).toEqual([
      ['unsupported_parameter', 'prediction'],
      ['unsupported_parameter', 'x_future_parameter'],
    ]);
    expect(upstream.requests[0]!.json).not.toHaveProperty('prediction');
    const refused = (await adapter().chatCompletions!(
      { model: 'command-a-03-2025', messages, modalities: ['text', 'audio'] } as never,
      context(),
    ).catch((e: unknown) => e)) as GatewayError;
    expect(refused).toMatchObject({ status: 400, param: 'modalities', code: 'unsupported_parameter' });
  });
});
