import type { ChatCompletion, ChatCompletionChunk } from '@switchyard/core';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { collectChunks } from '@switchyard/testkit/conformance';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_THINKING_BUDGETS, createAnthropic } from '../src/index.js';
import { callContext, chatRequest, fixtures, KEY, MESSAGES, recorded, replay } from './support.js';

const upstream = useMockUpstream({ clearBetweenTests: true });
const adapter = () => createAnthropic({ apiKey: KEY, baseURL: upstream.url });
const sentBody = () => upstream.requestsTo(MESSAGES).at(-1)!.json as Record<string, unknown>;
const send = async (extra: Record<string, unknown>) => {
  upstream.route(MESSAGES, recorded('anthropic-clear-thinking.1'));
  const context = callContext();
  const completion = (await adapter().chatCompletions!(chatRequest(extra), context)) as ChatCompletion;
  return { completion, warnings: context.warnings, body: sentBody() };
};
const recordedThinking = fixtures.json<{
  content: { type: string; thinking?: string; signature?: string; text?: string }[];
}>('anthropic/anthropic-clear-thinking.1.json');
const recordedStreamSignature = fixtures
  .chunkLines('anthropic/anthropic-clear-thinking.1.chunks.txt')
  .map((line) => JSON.parse(line) as { delta?: { type: string; signature?: string } })
  .find((event) => event.delta?.type === 'signature_delta')!.delta!.signature!;

describe('reasoning_effort -> thinking', () => {
  it('sends a thinking budget per level within max_tokens (Claude 4.5)', async () => {
    const { body, warnings } = await send({ reasoning_effort: 'low' });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: ANTHROPIC_THINKING_BUDGETS.low });
    expect(body.max_tokens).toBe(4096);
    expect(warnings).toEqual([]);
  });

  it('raises max_tokens above the budget and says so in a warning', async () => {
    const { body, warnings } = await send({ reasoning_effort: 'high', max_completion_tokens: 1000 });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    expect(body.max_tokens).toBe(17384);
    expect(warnings).toEqual([expect.objectContaining({ code: 'max_tokens_raised', param: 'max_completion_tokens' })]);
  });

  it('uses adaptive thinking and output_config.effort on Claude 4.6 and later', async () => {
    const { body } = await send({ model: 'claude-opus-4-6', reasoning_effort: 'medium' });
    expect(body).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'medium' },
      max_tokens: 4096,
    });
    const { body: opus5 } = await send({ model: 'claude-opus-5', reasoning_effort: 'minimal' });
    expect(opus5).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
  });

  it("sends no thinking for 'none'", async () => {
    const { body } = await send({ reasoning_effort: 'none' });
    expect(body.thinking).toBeUndefined();
  });

  it("passes the client's own thinking through as it is, and ignores reasoning_effort next to it with a warning", async () => {
    const { body, warnings } = await send({
      thinking: { type: 'enabled', budget_tokens: 3000 },
      reasoning_effort: 'high',
    });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    expect(warnings.map((w) => w.param)).toEqual(['reasoning_effort']);
  });

  it('offers the JSON tool without forcing it when thinking is on, and says so', async () => {
    const { body, warnings } = await send({ reasoning_effort: 'low', response_format: { type: 'json_object' } });
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual(['json']);
    expect(warnings).toEqual([expect.objectContaining({ code: 'unsupported_parameter', param: 'response_format' })]);
  });

  it('keeps a text answer when the offered JSON tool was not called (thinking on), streamed or not', async () => {
    const { completion } = await send({ reasoning_effort: 'low', response_format: { type: 'json_object' } });
    expect(completion.choices[0]!.message.content).toBe('925 ÷ 5 = 185');
    upstream.route(MESSAGES, replay('anthropic-clear-thinking.1'));
    const stream = (await adapter().chatCompletions!(
      chatRequest({ stream: true, reasoning_effort: 'low', response_format: { type: 'json_object' } }),
      callContext(),
    )) as AsyncIterable<ChatCompletionChunk>;
    expect((await collectChunks(stream)).content).toBe('925 ÷ 5 = 185');
  });

  it('drops sampling parameters Anthropic refuses with thinking, naming each in a warning', async () => {
    const { body, warnings } = await send({ reasoning_effort: 'low', temperature: 0.2, top_k: 5, top_p: 0.5 });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_k');
    expect(body.top_p).toBe(0.95);
    expect(warnings.map((w) => w.param)).toEqual(['temperature', 'top_k', 'top_p']);
  });
});

describe('thinking in answers', () => {
  it('returns thinking as reasoning_content and reasoning_details with the signature, never in content', async () => {
    const { completion } = await send({ reasoning_effort: 'low' });
    const message = completion.choices[0]!.message;
    const thinking = recordedThinking.content[0]!;
    expect(message.content).toBe('925 ÷ 5 = 185');
    expect(message.reasoning_content).toBe(thinking.thinking);
    expect(message.reasoning_details).toEqual([
      {
        type: 'reasoning.text',
        text: thinking.thinking,
        signature: thinking.signature,
        format: 'anthropic-claude-v1',
        index: 0,
      },
    ]);
  });

  it('reports thinking tokens as reasoning_tokens (Claude Opus 5 recording)', async () => {
    upstream.route(MESSAGES, recorded('anthropic-claude-opus-5-reasoning-high.1'));
    const completion = (await adapter().chatCompletions!(
      chatRequest({ model: 'claude-opus-5', reasoning_effort: 'high' }),
      callContext(),
    )) as ChatCompletion;
    expect(completion.usage).toMatchObject({
      completion_tokens: 1699,
      completion_tokens_details: { reasoning_tokens: 139 },
    });
    expect(completion.choices[0]!.message.reasoning_content).toMatch(/^I need to find all roots/);
    expect(completion.choices[0]!.message.content).toMatch(/^## Step 1/);
  });

  it('streams reasoning_content deltas before the content, then the signed reasoning_details entry', async () => {
    upstream.route(MESSAGES, replay('anthropic-clear-thinking.1'));
    const stream = (await adapter().chatCompletions!(
      chatRequest({ stream: true, reasoning_effort: 'low' }),
      callContext(),
    )) as AsyncIterable<ChatCompletionChunk>;
    const out = await collectChunks(stream);
    expect(out.reasoning).toBe('The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185');
    expect(out.content).toBe('925 ÷ 5 = 185');
    const firstContent = out.chunks.findIndex((c) => c.choices[0]?.delta.content);
    const lastReasoning = out.chunks.findLastIndex((c) => c.choices[0]?.delta.reasoning_content);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(out.reasoningDetails).toEqual([
      {
        type: 'reasoning.text',
        text: out.reasoning,
        signature: recordedStreamSignature,
        format: 'anthropic-claude-v1',
        index: 0,
      },
    ]);
  });

  it('streams a redacted_thinking block as a reasoning.encrypted entry', async () => {
    const events = [
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } },
      { type: 'message_stop' },
    ];
    upstream.route(MESSAGES, { chunks: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`) });
    const out = await collectChunks(
      (await adapter().chatCompletions!(
        chatRequest({ stream: true }),
        callContext(),
      )) as AsyncIterable<ChatCompletionChunk>,
    );
    expect(out.content).toBe('Hi');
    expect(out.reasoning).toBe('');
    expect(out.reasoningDetails).toEqual([
      { type: 'reasoning.encrypted', data: 'EmwKAhgBEgy3va3pzix', format: 'anthropic-claude-v1', index: 0 },
    ]);
  });
});

describe('thinking across turns', () => {
  it('sends reasoning_details back as the thinking blocks that open the assistant turn, before its tool_use', async () => {
    const thinking = recordedThinking.content[0]!;
    upstream.route(MESSAGES, recorded('anthropic-text'));
    await adapter().chatCompletions!(
      chatRequest({
        reasoning_effort: 'low',
        tools: [{ type: 'function', function: { name: 'divide', parameters: { type: 'object', properties: {} } } }],
        messages: [
          { role: 'user', content: 'Divide 925 by 5.' },
          {
            role: 'assistant',
            content: null,
            reasoning_content: thinking.thinking,
            reasoning_details: [
              {
                type: 'reasoning.text',
                text: thinking.thinking,
                signature: thinking.signature,
                format: 'anthropic-claude-v1',
                index: 0,
              },
              { type: 'reasoning.encrypted', data: 'EmwKAhgBEgy3va3pzix', format: 'anthropic-claude-v1', index: 1 },
              { type: 'reasoning.encrypted', data: 'gemini-signature', format: 'google-gemini-v1', index: 2 },
            ],
            tool_calls: [
              { id: 'toolu_1', type: 'function', function: { name: 'divide', arguments: '{"a":925,"b":5}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: '185' },
        ],
      }),
      callContext(),
    );
    const messages = sentBody().messages as { role: string; content: Record<string, unknown>[] }[];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: thinking.thinking, signature: thinking.signature },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
        { type: 'tool_use', id: 'toolu_1', name: 'divide', input: { a: 925, b: 5 } },
      ],
    });
  });
});

describe('prompt caching', () => {
  it('passes cache_control on content parts, system parts and tools through, and reports cache writes', async () => {
    const cache = { type: 'ephemeral' };
    const recordedText = fixtures.json<Record<string, unknown>>('anthropic/anthropic-text.json');
    upstream.route(MESSAGES, {
      json: {
        ...recordedText,
        usage: { input_tokens: 5, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0, output_tokens: 7 },
      },
    });
    const completion = (await adapter().chatCompletions!(
      chatRequest({
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Long instructions', cache_control: cache }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'A long document', cache_control: cache },
              { type: 'text', text: 'Question?' },
            ],
          },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'lookup', parameters: { type: 'object', properties: {} } },
            cache_control: cache,
          },
        ],
      }),
      callContext(),
    )) as ChatCompletion;
    const body = sentBody();
    expect(body.system).toEqual([{ type: 'text', text: 'Long instructions', cache_control: cache }]);
    expect((body.messages as { content: unknown[] }[])[0]!.content).toEqual([
      { type: 'text', text: 'A long document', cache_control: cache },
      { type: 'text', text: 'Question?' },
    ]);
    expect((body.tools as Record<string, unknown>[])[0]).toMatchObject({ name: 'lookup', cache_control: cache });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 2005,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 2000 },
    });
  });
});
