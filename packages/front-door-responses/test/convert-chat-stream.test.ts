import { type ChatCompletionChunk, GatewayError } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { convertChatStream, newResponseObject, type ResponsesStreamEvent } from '../src/index.js';

const chunk = (
  delta: ChatCompletionChunk['choices'][number]['delta'],
  finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null,
): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

async function collect(chunks: Iterable<ChatCompletionChunk>, fail?: Error): Promise<ResponsesStreamEvent[]> {
  const source = (async function* () {
    yield* chunks;
    if (fail) throw fail;
  })();
  const events: ResponsesStreamEvent[] = [];
  for await (const event of convertChatStream(source, newResponseObject('resp_1', { model: 'm', input: 'x' }, 1, true)))
    events.push(event);
  return events;
}

describe('convertChatStream', () => {
  it('emits text then tool call events in OpenAI order, numbered from 0', async () => {
    const events = await collect([
      chunk({ role: 'assistant', content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
      {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      },
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[6]).toMatchObject({ text: 'Hello', output_index: 0 });
    expect(events[12]).toMatchObject({ arguments: '{"a":1}', name: 'f', output_index: 1 });
    expect(events.at(-1)!.response).toMatchObject({
      status: 'completed',
      output_text: 'Hello',
      usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      output: [
        { type: 'message', status: 'completed' },
        { type: 'function_call', call_id: 'call_1', status: 'completed' },
      ],
    });
  });

  it('ends with response.incomplete when the output was cut by the token limit', async () => {
    const events = await collect([chunk({ content: 'Long' }), chunk({}, 'length')]);
    expect(events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('ends a failed stream with error and response.failed, never response.completed', async () => {
    const failure = new GatewayError({
      status: 502,
      type: 'server_error',
      code: 'upstream_unreachable',
      message: 'gone',
    });
    const events = await collect([chunk({ content: 'Hi' })], failure);
    expect(events.slice(-2).map((e) => e.type)).toEqual(['error', 'response.failed']);
    expect(events.at(-2)).toMatchObject({ code: 'server_error', message: 'gone' });
    expect(events.at(-1)).toMatchObject({
      response: { status: 'failed', error: { code: 'server_error', message: 'gone' } },
    });
  });
});
