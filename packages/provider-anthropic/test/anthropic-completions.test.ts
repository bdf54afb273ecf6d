import type { ChatCompletion } from '@switchyard/core';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { type AnthropicOptions, createAnthropic, mapAnthropicStopReason } from '../src/index.js';
import { callContext, chatRequest, fixtures, KEY, MESSAGES, recorded } from './support.js';

const upstream = useMockUpstream({ clearBetweenTests: true });
const adapter = (options: Partial<AnthropicOptions> = {}) =>
  createAnthropic({ apiKey: KEY, baseURL: upstream.url, ...options });
const complete = async (extra: Record<string, unknown> = {}, options: Partial<AnthropicOptions> = {}) =>
  (await adapter(options).chatCompletions!(chatRequest(extra), callContext())) as ChatCompletion;
const weatherTool = {
  type: 'function',
  function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};

describe('the upstream request', () => {
  it('is POST /v1/messages with x-api-key, anthropic-version 2023-06-01 and a JSON body', async () => {
    upstream.route(MESSAGES, recorded('anthropic-text'));
    await complete();
    const [sent] = upstream.requestsTo(MESSAGES);
    expect(sent!.headers).toMatchObject({
      'x-api-key': KEY,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    });
    expect(sent!.json).toMatchObject({ model: 'claude-sonnet-4-5-20250929', max_tokens: 4096 });
  });

  it('honours version, extra headers and a base URL ending in /v1', async () => {
    upstream.route(MESSAGES, recorded('anthropic-text'));
    await complete(
      {},
      { baseURL: `${upstream.url}/v1/`, version: '2024-01-01', headers: { 'anthropic-beta': 'test-beta' } },
    );
    expect(upstream.requestsTo(MESSAGES)[0]!.headers).toMatchObject({
      'anthropic-version': '2024-01-01',
      'anthropic-beta': 'test-beta',
      'x-api-key': KEY,
    });
  });

  it('uses the configured max_tokens defaults when the request has none', async () => {
    upstream.route(MESSAGES, recorded('anthropic-text'));
    await complete({}, { defaultMaxTokens: 1000, maxTokensByModel: { 'claude-sonnet-4-5': 9000 } });
    await complete(
      { model: 'claude-haiku-4-5' },
      { defaultMaxTokens: 1000, maxTokensByModel: { 'claude-sonnet-4-5': 9000 } },
    );
    expect(upstream.requestsTo(MESSAGES).map((r) => (r.json as { max_tokens: number }).max_tokens)).toEqual([
      9000, 1000,
    ]);
  });
});

describe('answers', () => {
  it('translate a text answer: content, finish_reason stop, usage', async () => {
    upstream.route(MESSAGES, recorded('anthropic-text'));
    const completion = await complete();
    const expected = fixtures.json<{ id: string; content: { text: string }[] }>('anthropic/anthropic-text.json');
    expect(completion).toMatchObject({
      id: expected.id,
      object: 'chat.completion',
      model: 'claude-sonnet-4-5-20250929',
      created: expect.any(Number),
    });
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: expected.content[0]!.text, refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ]);
    expect(completion.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 29,
      total_tokens: 41,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    });
  });

  it('translate tool_use blocks into tool_calls with JSON string arguments, keeping the text', async () => {
    upstream.route(MESSAGES, recorded('anthropic-tool-no-args'));
    const choice = (await complete()).choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toMatch(/^<thinking>[\s\S]*Okay, I will update the current issue list:$/);
    expect(choice.message.tool_calls).toEqual([
      {
        id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
        type: 'function',
        function: { name: 'updateIssueList', arguments: '{}' },
      },
    ]);
  });

  it('translate parallel tool calls in order, and count cache reads in prompt_tokens', async () => {
    upstream.route(MESSAGES, recorded('anthropic-parallel-tools'));
    const completion = await complete();
    const calls = completion.choices[0]!.message.tool_calls!;
    expect(calls.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['toolu_01T1x1fJ34qAmk2tNTrN7Up6', 'get_weather', { location: 'San Francisco, CA' }],
      ['toolu_01Bq9bF6JpsBwRx4iKAPkXXj', 'get_weather', { location: 'New York, NY' }],
    ]);
    expect(completion.usage).toEqual({
      prompt_tokens: 600,
      completion_tokens: 89,
      total_tokens: 689,
      prompt_tokens_details: { cached_tokens: 128, cache_write_tokens: 0 },
    });
  });

  it('count cache writes and reads in prompt_tokens', async () => {
    const answer = fixtures.json<Record<string, unknown>>('anthropic/anthropic-text.json');
    upstream.route(MESSAGES, {
      json: {
        ...answer,
        usage: { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 7 },
      },
    });
    expect((await complete()).usage).toEqual({
      prompt_tokens: 1105,
      completion_tokens: 7,
      total_tokens: 1112,
      prompt_tokens_details: { cached_tokens: 1000, cache_write_tokens: 100 },
    });
  });

  it('map a refusal to content_filter, with null content when nothing was said', async () => {
    upstream.route(MESSAGES, recorded('anthropic-refusal'));
    expect((await complete()).choices[0]!.finish_reason).toBe('content_filter');
    upstream.route(MESSAGES, recorded('anthropic-refusal-no-details'));
    expect((await complete()).choices[0]).toMatchObject({
      message: { content: null },
      finish_reason: 'content_filter',
    });
  });

  it('leave thinking blocks out of the content', async () => {
    upstream.route(MESSAGES, recorded('anthropic-clear-thinking.1'));
    expect((await complete()).choices[0]!.message.content).toBe('925 ÷ 5 = 185');
  });

  it('turn the JSON tool call into JSON content with finish_reason stop when response_format asks for JSON', async () => {
    upstream.route(MESSAGES, recorded('anthropic-json-tool.1'));
    const schema = { type: 'object', properties: { elements: { type: 'array' } } };
    const completion = await complete({
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema } },
    });
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant' } });
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
    const recordedInput = fixtures.json<{ content: { input: unknown }[] }>('anthropic/anthropic-json-tool.1.json')
      .content[0]!.input;
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual(recordedInput);
    expect(recordedInput).toMatchObject({
      elements: [{ location: 'San Francisco', temperature: -5, condition: 'snowy' }, {}, {}, {}],
    });
    expect(upstream.requestsTo(MESSAGES)[0]!.json).toMatchObject({
      tools: [{ name: 'json', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'json' },
    });
  });

  it('keep a client tool call as a tool call in JSON mode', async () => {
    upstream.route(MESSAGES, recorded('anthropic-json-other-tool.1'));
    const choice = (await complete({ tools: [weatherTool], response_format: { type: 'json_object' } })).choices[0]!;
    expect(choice).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [{ function: { name: 'weather', arguments: '{"location":"San Francisco"}' } }],
      },
    });
  });

  it('answer 502 when the upstream body is not a message', async () => {
    upstream.route(MESSAGES, { json: { id: 'msg_1', model: 'claude', content: 'not blocks' } });
    await expect(complete()).rejects.toMatchObject({ status: 502, code: 'upstream_invalid_response' });
  });

  it('map every stop reason', () => {
    expect(
      [
        'end_turn',
        'stop_sequence',
        'pause_turn',
        'max_tokens',
        'model_context_window_exceeded',
        'tool_use',
        'refusal',
        null,
        'a_new_reason',
      ].map(mapAnthropicStopReason),
    ).toEqual(['stop', 'stop', 'stop', 'length', 'length', 'tool_calls', 'content_filter', 'stop', 'stop']);
  });
});

describe('n > 1', () => {
  it('runs n concurrent requests without n and returns n choices with summed usage', async () => {
    upstream.route(MESSAGES, recorded('anthropic-text'));
    const completion = await complete({ n: 3 });
    expect(upstream.requestsTo(MESSAGES)).toHaveLength(3);
    expect((upstream.requests[0]!.json as Record<string, unknown>).n).toBeUndefined();
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(completion.choices.every((c) => c.message.content === completion.choices[0]!.message.content)).toBe(true);
    expect(completion.usage).toMatchObject({ prompt_tokens: 36, completion_tokens: 87, total_tokens: 123 });
  });

  it('fails with the first error and aborts the other requests', async () => {
    upstream.route(MESSAGES, (_request, call) =>
      call === 1
        ? { status: 529, json: fixtures.json('anthropic/anthropic-error-overloaded.json'), delayMs: 50 }
        : { hang: true },
    );
    await expect(complete({ n: 3 })).rejects.toMatchObject({ status: 503, message: 'Overloaded' });
    await expect.poll(() => upstream.requestsTo(MESSAGES).filter((r) => r.closedByClient).length).toBe(2);
  });
});

describe('listModels', () => {
  it("returns Anthropic's models with their creation time", async () => {
    upstream.route('GET /v1/models', { json: fixtures.json('anthropic/anthropic-models.json') });
    expect(await adapter().listModels!(callContext())).toEqual([
      { id: 'claude-sonnet-4-5-20250929', created: Date.parse('2025-09-29T00:00:00Z') / 1000 },
      { id: 'claude-haiku-4-5-20251001', created: Date.parse('2025-10-01T00:00:00Z') / 1000 },
    ]);
    expect(upstream.requestsTo('GET /v1/models')[0]!.headers).toMatchObject({
      'x-api-key': KEY,
      'anthropic-version': '2023-06-01',
    });
  });

  it('follows has_more pages with after_id', async () => {
    const [first, second] = fixtures.json<{ data: unknown[] }>('anthropic/anthropic-models.json').data;
    upstream.route('GET /v1/models', (request) =>
      request.query.after_id === 'claude-sonnet-4-5-20250929'
        ? { json: { data: [second], has_more: false, last_id: 'claude-haiku-4-5-20251001' } }
        : { json: { data: [first], has_more: true, last_id: 'claude-sonnet-4-5-20250929' } },
    );
    expect((await adapter().listModels!(callContext())).map((m) => m.id)).toEqual([
      'claude-sonnet-4-5-20250929',
      'claude-haiku-4-5-20251001',
    ]);
    expect(upstream.requestsTo('GET /v1/models').map((r) => r.query)).toEqual([
      { limit: '1000' },
      { limit: '1000', after_id: 'claude-sonnet-4-5-20250929' },
    ]);
  });
});
