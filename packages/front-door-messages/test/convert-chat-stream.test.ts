import { type ChatCompletionChunk, GatewayError } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { convertChatStream, passThroughEvents } from '../src/index.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk =>
  ({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  }) as ChatCompletionChunk;

async function events(chunks: ChatCompletionChunk[], fail?: Error): Promise<{ type: string; [k: string]: unknown }[]> {
  const source = (async function* () {
    yield* chunks;
    if (fail) throw fail;
  })();
  const out: { type: string }[] = [];
  for await (const text of convertChatStream(source, 'm'))
    out.push(JSON.parse(text.split('\ndata: ')[1]!) as { type: string });
  return out;
}

describe('convertChatStream', () => {
  it('writes thinking, text and tool use blocks in Anthropic order', async () => {
    const out = await events([
      chunk({ reasoning_content: 'Think' }),
      chunk({ content: 'Hi' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
      {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [],
        usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
      },
    ]);
    expect(
      out.map((e) => (e.type === 'content_block_delta' ? `delta:${(e.delta as { type: string }).type}` : e.type)),
    ).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'delta:thinking_delta',
      'content_block_stop',
      'content_block_start',
      'delta:text_delta',
      'content_block_stop',
      'content_block_start',
      'delta:input_json_delta',
      'delta:input_json_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(out[8]).toMatchObject({ index: 2, content_block: { type: 'tool_use', id: 'call_1', name: 'f' } });
    expect(out.at(-2)).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 5, output_tokens: 7 },
    });
  });

  it('ends a failed stream with one error event, never message_stop', async () => {
    const out = await events(
      [chunk({ content: 'Hi' })],
      new GatewayError({ status: 502, type: 'server_error', message: 'gone' }),
    );
    expect(out.at(-1)).toEqual({ type: 'error', error: { type: 'api_error', message: 'gone' } });
    expect(out.some((e) => e.type === 'message_stop')).toBe(false);
  });
});

describe('passThroughEvents', () => {
  it('passes events unchanged and reports their usage', async () => {
    const source = (async function* () {
      yield {
        event: 'message_start',
        data: '{"type":"message_start","message":{"usage":{"input_tokens":10,"cache_read_input_tokens":4,"output_tokens":1}}}',
      };
      yield { event: 'message_delta', data: '{"type":"message_delta","usage":{"output_tokens":20}}' };
    })();
    let usage: unknown;
    const out: string[] = [];
    for await (const text of passThroughEvents(source, (u) => (usage = u))) out.push(text);
    expect(out[0]).toBe(
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":10,"cache_read_input_tokens":4,"output_tokens":1}}}\n\n',
    );
    expect(usage).toMatchObject({
      prompt_tokens: 14,
      completion_tokens: 20,
      prompt_tokens_details: { cached_tokens: 4 },
    });
  });
});
