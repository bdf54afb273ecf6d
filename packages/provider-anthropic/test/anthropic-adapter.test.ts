import type { AdapterCallContext, ChatCompletion, ChatCompletionChunk } from '@switchyard/core';
import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { collectChunks } from '@switchyard/testkit/conformance';
import { describe, expect, it } from 'vitest';
import { createAnthropic, mapAnthropicError, mapAnthropicStopReason } from '../src/index.js';

const KEY = 'sk-ant-unit-secret-123456';
const fixtures = testkitFixtures();
const MESSAGES = 'POST /v1/messages';
const upstream = useMockUpstream({ clearBetweenTests: true });
const context = (): AdapterCallContext => ({
  signal: new AbortController().signal,
  requestId: 'req-1',
  provider: 'anthropic',
  warn: () => {},
});
const adapter = () => createAnthropic({ apiKey: KEY, baseURL: upstream.url });
const ask = (extra: Record<string, unknown> = {}) =>
  adapter().chatCompletions!(
    { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hello' }], ...extra },
    context(),
  );
const stream = (name: string) => ({ chunks: sseFrames(fixtures.chunkLines(`anthropic/${name}.chunks.txt`), 'typed') });

describe('Anthropic responses', () => {
  it('sends x-api-key and anthropic-version, and translates a text answer', async () => {
    upstream.route(MESSAGES, { json: fixtures.json('anthropic/anthropic-text.json') });
    const completion = (await ask()) as ChatCompletion;
    expect(upstream.requests[0]!.headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: expect.stringMatching(/^Hello! I'm doing well/) },
      finish_reason: 'stop',
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 29, total_tokens: 41 });
  });

  it('translates tool_use blocks into tool_calls with JSON string arguments', async () => {
    upstream.route(MESSAGES, { json: fixtures.json('anthropic/anthropic-json-tool.1.json') });
    const completion = (await ask()) as ChatCompletion;
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({ id: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa', type: 'function', function: { name: 'json' } });
    expect(JSON.parse(call.function.arguments).elements).toHaveLength(4);
  });

  it('maps a refusal to content_filter', async () => {
    upstream.route(MESSAGES, { json: fixtures.json('anthropic/anthropic-refusal.json') });
    expect(((await ask()) as ChatCompletion).choices[0]!.finish_reason).toBe('content_filter');
  });

  it('counts cache tokens in prompt_tokens', async () => {
    const recorded = fixtures.json<Record<string, unknown>>('anthropic/anthropic-text.json');
    upstream.route(MESSAGES, {
      json: {
        ...recorded,
        usage: { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 7 },
      },
    });
    expect(((await ask()) as ChatCompletion).usage).toEqual({
      prompt_tokens: 1105,
      completion_tokens: 7,
      total_tokens: 1112,
      prompt_tokens_details: { cached_tokens: 1000, cache_write_tokens: 100 },
    });
  });

  it('runs n requests concurrently for n > 1 and sums usage', async () => {
    upstream.route(MESSAGES, { json: fixtures.json('anthropic/anthropic-text.json') });
    const completion = (await ask({ n: 3 })) as ChatCompletion;
    expect(upstream.requests).toHaveLength(3);
    expect((upstream.requests[0]!.json as Record<string, unknown>).n).toBeUndefined();
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(completion.usage).toMatchObject({ prompt_tokens: 36, completion_tokens: 87, total_tokens: 123 });
  });

  it('lists models', async () => {
    upstream.route('GET /v1/models', { json: fixtures.json('anthropic/anthropic-models.json') });
    expect((await adapter().listModels!(context())).map((m) => m.id)).toEqual([
      'claude-sonnet-4-5-20250929',
      'claude-haiku-4-5-20251001',
    ]);
  });
});

describe('Anthropic streams', () => {
  it('translates a text stream: role, content, finish reason, then usage', async () => {
    upstream.route(MESSAGES, stream('anthropic-text'));
    const assembled = await collectChunks((await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>);
    expect(assembled.chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    expect(assembled.content).toMatch(/^Hello/);
    expect(assembled.finishReasons).toEqual(['stop']);
    expect(assembled.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 30, total_tokens: 42 });
    expect(assembled.ids.size).toBe(1);
  });

  it('streams tool calls with OpenAI indexes and argument fragments that join to the input', async () => {
    upstream.route(MESSAGES, stream('anthropic-tool-no-args'));
    const assembled = await collectChunks((await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>);
    const calls = assembled.chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []) as {
      index: number;
      id?: string;
      function: { name?: string; arguments?: string };
    }[];
    expect(calls[0]).toMatchObject({
      index: 0,
      id: expect.stringMatching(/^toolu_/),
      function: { name: 'updateIssueList', arguments: '' },
    });
    expect(calls.every((c) => c.index === 0)).toBe(true);
    expect(assembled.finishReasons).toEqual(['tool_calls']);
    expect(assembled.content.length).toBeGreaterThan(0);

    upstream.route(MESSAGES, stream('anthropic-json-tool.1'));
    const json = await collectChunks((await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>);
    const args = json.chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .map((c) => (c as { function: { arguments?: string } }).function.arguments ?? '')
      .join('');
    expect(JSON.parse(args)).toEqual({
      elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }],
    });
  });

  it('turns an error event mid-stream into a thrown OpenAI-shaped error', async () => {
    const lines = fixtures.chunkLines('anthropic/anthropic-text.chunks.txt').slice(0, 3);
    upstream.route(MESSAGES, {
      chunks: [
        ...sseFrames(lines, 'typed'),
        `event: error\ndata: ${fixtures.text('anthropic/anthropic-error-overloaded.json').trim()}\n\n`,
      ],
    });
    const chunks = (await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>;
    await expect(collectChunks(chunks)).rejects.toMatchObject({
      status: 503,
      message: 'Overloaded',
      type: 'server_error',
      code: 'overloaded',
    });
  });

  it('merges n streams, each chunk carrying its choice index, with one summed usage chunk', async () => {
    upstream.route(MESSAGES, stream('anthropic-text'));
    const assembled = await collectChunks((await ask({ stream: true, n: 2 })) as AsyncIterable<ChatCompletionChunk>);
    const indexes = new Set(assembled.chunks.flatMap((c) => c.choices.map((ch) => ch.index)));
    expect(indexes).toEqual(new Set([0, 1]));
    expect(assembled.chunks.filter((c) => c.usage)).toHaveLength(1);
    expect(assembled.usage).toMatchObject({ prompt_tokens: 24, completion_tokens: 60, total_tokens: 84 });
    expect(assembled.ids.size).toBe(1);
  });
});

describe('Anthropic errors', () => {
  it('maps 529 overloaded to 503 and 429 keeping retry-after, without the key', () => {
    const overloaded = mapAnthropicError(
      'anthropic',
      529,
      fixtures.text('anthropic/anthropic-error-overloaded.json'),
      {},
      [KEY],
    );
    expect(overloaded.status).toBe(503);
    const limited = mapAnthropicError(
      'anthropic',
      429,
      fixtures.text('anthropic/anthropic-error-rate-limit.json'),
      { 'retry-after': '12' },
      [KEY],
    );
    expect(limited.toJSON().error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      message: expect.stringContaining('rate limit'),
    });
    expect(limited.headers['retry-after']).toBe('12');
    expect(
      mapAnthropicError(
        'anthropic',
        401,
        JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } }),
        {},
        [KEY],
      ).message,
    ).not.toContain(KEY);
  });

  it('maps every stop reason', () => {
    expect(
      [
        'end_turn',
        'stop_sequence',
        'pause_turn',
        'max_tokens',
        'model_context_window_exceeded',
        'tool_use',
        'refusal',
      ].map(mapAnthropicStopReason),
    ).toEqual(['stop', 'stop', 'stop', 'length', 'length', 'tool_calls', 'content_filter']);
  });
});
