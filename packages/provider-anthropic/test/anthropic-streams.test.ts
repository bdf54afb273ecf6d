import type { ChatCompletionChunk } from '@switchyard/core';
import { type MockReply, sseFrames } from '@switchyard/testkit';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { collectChunks } from '@switchyard/testkit/conformance';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from '../src/index.js';
import { callContext, chatRequest, fixtures, KEY, MESSAGES, replay } from './support.js';

const upstream = useMockUpstream({ clearBetweenTests: true });
const stream = async (reply: MockReply, extra: Record<string, unknown> = {}, signal?: AbortSignal) => {
  upstream.route(MESSAGES, reply);
  const adapter = createAnthropic({ apiKey: KEY, baseURL: upstream.url });
  return (await adapter.chatCompletions!(
    chatRequest({ stream: true, ...extra }),
    callContext(signal),
  )) as AsyncIterable<ChatCompletionChunk>;
};
const collect = async (reply: MockReply, extra: Record<string, unknown> = {}) =>
  collectChunks(await stream(reply, { stream_options: { include_usage: true }, ...extra }));
type ToolDelta = { index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } };
const toolDeltas = (chunks: ChatCompletionChunk[]) =>
  chunks.flatMap((c) => (c.choices[0]?.delta.tool_calls ?? []) as ToolDelta[]);
/** The recorded text deltas of a stream, joined. */
const recordedText = (name: string) =>
  fixtures
    .chunkLines(`anthropic/${name}.chunks.txt`)
    .map((line) => JSON.parse(line) as { type: string; delta?: { type: string; text?: string } })
    .map((e) => (e.type === 'content_block_delta' && e.delta?.type === 'text_delta' ? (e.delta.text ?? '') : ''))
    .join('');
const afterFinish = (chunks: ChatCompletionChunk[]) =>
  chunks.slice(chunks.findIndex((c) => c.choices.some((ch) => ch.finish_reason)) + 1);

describe('text streams', () => {
  it('start with the role, stream the text deltas, finish once with stop, then send usage', async () => {
    const out = await collect(replay('anthropic-text'));
    expect(upstream.requestsTo(MESSAGES)[0]!.json).toMatchObject({ stream: true });
    expect(out.chunks[0]).toMatchObject({
      id: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
      object: 'chat.completion.chunk',
      model: 'claude-sonnet-4-5-20250929',
    });
    expect(out.chunks[0]!.choices).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null },
    ]);
    expect(out.content).toBe(recordedText('anthropic-text'));
    expect(out.finishReasons).toEqual(['stop']);
    expect(out.ids).toEqual(new Set(['msg_01QC4g3HwBThD4BaNtBckFDJ']));
    const last = out.chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 30,
      total_tokens: 42,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    });
    expect(afterFinish(out.chunks).filter((c) => c.choices.length > 0)).toEqual([]);
  });

  it('skip ping events and take the cumulative usage of message_delta', async () => {
    const out = await collect(replay('anthropic-message-delta-input-tokens'));
    expect(out.content).toBe('pong');
    expect(out.usage).toMatchObject({ prompt_tokens: 61, completion_tokens: 2, total_tokens: 63 });
  });

  it('leave thinking and signature deltas out', async () => {
    const out = await collect(replay('anthropic-clear-thinking.1'));
    expect(out.content).toBe('925 ÷ 5 = 185');
  });

  it('map a refusal to content_filter', async () => {
    expect((await collect(replay('anthropic-refusal'))).finishReasons).toEqual(['content_filter']);
  });

  it('yield chunks as they arrive, before the stream ends', async () => {
    const frames = sseFrames(fixtures.chunkLines('anthropic/anthropic-text.chunks.txt'), 'typed');
    const chunks = await stream({ chunks: frames, resetAfterChunks: 4 });
    const seen: ChatCompletionChunk[] = [];
    const error = await (async () => {
      for await (const chunk of chunks) seen.push(chunk);
    })().catch((e: unknown) => e);
    expect(seen.map((c) => c.choices[0]!.delta.content)).toEqual(['', 'Hello']);
    expect(error).toMatchObject({ status: 502 });
  });
});

describe('tool call streams', () => {
  it('announce a tool call with id, name and empty arguments, remapping the block index to the tool index', async () => {
    const out = await collect(replay('anthropic-tool-no-args'));
    expect(out.content).toBe("I'll update the issue list for you.");
    expect(toolDeltas(out.chunks)).toEqual([
      {
        index: 0,
        id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP',
        type: 'function',
        function: { name: 'updateIssueList', arguments: '' },
      },
    ]);
    expect(out.finishReasons).toEqual(['tool_calls']);
  });

  it('stream input_json_delta fragments of parallel calls under each call index', async () => {
    const out = await collect(replay('anthropic-parallel-tools'));
    const deltas = toolDeltas(out.chunks);
    expect(deltas.filter((d) => d.id).map((d) => [d.index, d.id])).toEqual([
      [0, 'toolu_01T1x1fJ34qAmk2tNTrN7Up6'],
      [1, 'toolu_01Bq9bF6JpsBwRx4iKAPkXXj'],
    ]);
    const args = (index: number) =>
      deltas
        .filter((d) => d.index === index)
        .map((d) => d.function?.arguments ?? '')
        .join('');
    expect(JSON.parse(args(0))).toEqual({ location: 'San Francisco, CA' });
    expect(JSON.parse(args(1))).toEqual({ location: 'New York, NY' });
    expect(deltas.filter((d) => !d.id).every((d) => d.function?.arguments !== '')).toBe(true);
    expect(out.finishReasons).toEqual(['tool_calls']);
    expect(out.usage).toMatchObject({ prompt_tokens: 600, completion_tokens: 89 });
  });
});

describe('JSON streams (response_format)', () => {
  const json = { response_format: { type: 'json_object' } };

  it('stream the JSON tool input as content and finish with stop', async () => {
    const out = await collect(replay('anthropic-json-tool.1'), json);
    expect(toolDeltas(out.chunks)).toEqual([]);
    expect(JSON.parse(out.content)).toEqual({
      elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }],
    });
    expect(out.finishReasons).toEqual(['stop']);
  });

  it('leave out text said before the JSON', async () => {
    const out = await collect(replay('anthropic-json-tool.2'), json);
    expect(out.content).not.toContain("I'll invoke");
    expect(JSON.parse(out.content)).toEqual({
      elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }],
    });
  });

  it('keep a client tool call as a tool call', async () => {
    const tools = [{ type: 'function', function: { name: 'weather' } }];
    const out = await collect(replay('anthropic-json-other-tool.1'), { ...json, tools });
    expect(out.content).toBe('');
    expect(toolDeltas(out.chunks)[0]).toMatchObject({ index: 0, function: { name: 'weather' } });
    expect(out.finishReasons).toEqual(['tool_calls']);
  });
});

describe('broken and failing streams', () => {
  it('ignore a repeated message_start of the same message', async () => {
    const out = await collect(replay('duplicate-message-start'));
    expect(out.chunks.filter((c) => c.choices[0]?.delta.role)).toHaveLength(1);
    expect(out.content).toBe('Hello, World!');
    expect(out.usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 227 });
  });

  it('throw 502 when another message starts before the first ended, without finishing', async () => {
    const seen: ChatCompletionChunk[] = [];
    const error = await (async () => {
      for await (const chunk of await stream(replay('spliced-message-start'), {
        tools: [{ type: 'function', function: { name: 'test-tool' } }],
      }))
        seen.push(chunk);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(seen.some((c) => c.choices[0]?.finish_reason)).toBe(false);
    expect(new Set(seen.map((c) => c.id))).toEqual(new Set(['msg_first']));
  });

  it.each([
    ['overloaded_error', 'Overloaded', 503, 'server_error'],
    ['rate_limit_error', 'Too many requests', 429, 'rate_limit_error'],
    ['api_error', 'Internal server error', 500, 'server_error'],
    ['something_new', 'Odd', 502, 'server_error'],
  ])('turn an %s event mid-stream into a thrown OpenAI-shaped error', async (type, message, status, openAIType) => {
    const lines = fixtures.chunkLines('anthropic/anthropic-text.chunks.txt').slice(0, 4);
    const error = JSON.stringify({ type: 'error', error: { type, message } });
    const failure = await collect({ chunks: [...sseFrames(lines, 'typed'), `event: error\ndata: ${error}\n\n`] }).catch(
      (e: unknown) => e,
    );
    expect(failure).toMatchObject({ status, type: openAIType, message });
    expect((failure as { toJSON(): unknown }).toJSON()).toEqual({
      error: { message, type: openAIType, param: null, code: expect.toBeOneOf([expect.any(String), null]) },
    });
  });

  it('throw 502 when the stream ends before message_stop', async () => {
    const lines = fixtures.chunkLines('anthropic/anthropic-text.chunks.txt').slice(0, -1);
    await expect(collect({ chunks: sseFrames(lines, 'typed') })).rejects.toMatchObject({
      status: 502,
      code: 'upstream_invalid_response',
    });
  });

  it('throw 502 for an event that is not JSON', async () => {
    await expect(collect({ chunks: ['event: message_start\ndata: {oops\n\n'] })).rejects.toMatchObject({
      status: 502,
      code: 'upstream_invalid_response',
    });
  });
});

describe('n > 1 streams', () => {
  it('interleave n streams, each chunk carrying its choice index, under one id with one summed usage chunk', async () => {
    const out = await collect(replay('anthropic-text'), { n: 2 });
    expect(upstream.requestsTo(MESSAGES)).toHaveLength(2);
    expect(new Set(out.chunks.flatMap((c) => c.choices.map((ch) => ch.index)))).toEqual(new Set([0, 1]));
    const text = (index: number) =>
      out.chunks
        .flatMap((c) => c.choices.filter((ch) => ch.index === index))
        .map((ch) => ch.delta.content ?? '')
        .join('');
    expect([text(0), text(1)]).toEqual([recordedText('anthropic-text'), recordedText('anthropic-text')]);
    expect(out.chunks.filter((c) => c.usage)).toHaveLength(1);
    expect(out.chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 24, completion_tokens: 60, total_tokens: 84 });
    expect(out.ids).toEqual(new Set(['chatcmpl-req-1']));
  });

  it('fail at once with the first failing stream, closing the others even when they stall', async () => {
    const lines = fixtures.chunkLines('anthropic/anthropic-text.chunks.txt');
    const overloaded = `event: error\ndata: ${JSON.stringify(fixtures.json('anthropic/anthropic-error-overloaded.json'))}\n\n`;
    upstream.route(MESSAGES, (_request, call) =>
      call === 0
        ? { chunks: [...sseFrames(lines.slice(0, 4), 'typed'), overloaded], chunkDelayMs: 20 }
        : { chunks: sseFrames(lines, 'typed'), chunkDelayMs: 10_000 },
    );
    const adapter = createAnthropic({ apiKey: KEY, baseURL: upstream.url });
    const started = Date.now();
    const chunks = (await adapter.chatCompletions!(
      chatRequest({ stream: true, n: 2 }),
      callContext(),
    )) as AsyncIterable<ChatCompletionChunk>;
    await expect(collectChunks(chunks)).rejects.toMatchObject({ status: 503, message: 'Overloaded' });
    expect(Date.now() - started).toBeLessThan(2000);
    await expect.poll(() => upstream.requestsTo(MESSAGES).filter((r) => r.closedByClient).length).toBe(1);
  });

  it('close every upstream stream when the consumer stops early', async () => {
    const chunks = await stream({ ...replay('anthropic-text'), chunkDelayMs: 50 }, { n: 3 });
    for await (const _chunk of chunks) break;
    await expect.poll(() => upstream.requestsTo(MESSAGES).filter((r) => r.closedByClient).length).toBe(3);
  });
});
