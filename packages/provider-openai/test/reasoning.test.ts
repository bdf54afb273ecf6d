import type { ChatCompletion, ChatCompletionChunk } from '@switchyard/core';
import { sseFrames } from '@switchyard/testkit';
import { collectChunks } from '@switchyard/testkit/conformance';
import { describe, expect, it } from 'vitest';
import { callContext, fixtures, useMockUpstream } from './helpers/openai-test-upstream.js';

const ROUTE = 'POST /openai/v1/chat/completions';
const { upstream, adapter } = useMockUpstream();
const ask = (extra: Record<string, unknown> = {}) =>
  adapter().chatCompletions!(
    { model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'x' }], ...extra },
    callContext(),
  );

describe('reasoning over an OpenAI-compatible upstream (DeepSeek recordings)', () => {
  it('passes message.reasoning_content and reasoning usage through, apart from content', async () => {
    const recorded = fixtures.json<ChatCompletion>('deepseek/deepseek-reasoning.json');
    upstream().route(ROUTE, { json: recorded });
    const completion = (await ask({ reasoning_effort: 'high', max_completion_tokens: 500 })) as ChatCompletion;
    expect((upstream().requests[0]!.json as Record<string, unknown>).reasoning_effort).toBe('high');
    expect((upstream().requests[0]!.json as Record<string, unknown>).max_completion_tokens).toBe(500);
    expect(completion.choices[0]!.message.reasoning_content).toBe(recorded.choices[0]!.message.reasoning_content);
    expect(completion.choices[0]!.message.reasoning_content).toBeTruthy();
    expect(completion.choices[0]!.message.content).toBe(recorded.choices[0]!.message.content);
    expect(completion.usage).toEqual(recorded.usage);
  });

  it('streams delta.reasoning_content before the content, each text once', async () => {
    const lines = fixtures.chunkLines('deepseek/deepseek-reasoning.chunks.txt');
    upstream().route(ROUTE, { chunks: sseFrames(lines) });
    const out = await collectChunks((await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>);
    const recorded = lines.map((l) => JSON.parse(l) as ChatCompletionChunk);
    const join = (field: 'content' | 'reasoning_content') =>
      recorded.map((c) => (c.choices[0]?.delta[field] as string | null | undefined) ?? '').join('');
    expect(out.reasoning).toBe(join('reasoning_content'));
    expect(out.reasoning.length).toBeGreaterThan(0);
    expect(out.content).toBe(join('content'));
    const firstContent = out.chunks.findIndex((c) => c.choices[0]?.delta.content);
    const lastReasoning = out.chunks.findLastIndex((c) => c.choices[0]?.delta.reasoning_content);
    expect(lastReasoning).toBeLessThan(firstContent);
  });

  it('ends with an error, not a success, when a bare JSON error body follows the events', async () => {
    const [first] = fixtures.chunkLines('deepseek/deepseek-reasoning.chunks.txt');
    upstream().route(ROUTE, {
      chunks: [`data: ${first}\n\n`, '{\n  "error": {"message": "Upstream overloaded", "type": "server_error"}\n}\n'],
    });
    const stream = (await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>;
    await expect(collectChunks(stream)).rejects.toMatchObject({ status: 502, message: 'Upstream overloaded' });
  });
});
