import type { ChatCompletion, ChatCompletionChunk } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import {
  convertChatCompletion,
  convertChatStream,
  newResponseObject,
  type ResponsesStreamEvent,
} from '../src/index.js';

const search = { id: 'srvtoolu_01', query: 'weather Paris' };
const item = {
  type: 'web_search_call',
  id: 'ws_srvtoolu_01',
  status: 'completed',
  action: { type: 'search', query: 'weather Paris' },
};

describe('web_search_calls -> web_search_call items', () => {
  it('puts each search of a completion before its message', () => {
    const completion: ChatCompletion = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Sunny.', web_search_calls: [search] },
          finish_reason: 'length',
          logprobs: null,
        },
      ],
    };
    const response = convertChatCompletion(
      completion,
      newResponseObject('resp_1', { model: 'm', input: 'x' }, 1, true),
    );
    expect(response.output.map((output) => output.type)).toEqual(['web_search_call', 'message']);
    // A search that ran stays completed when the answer is cut.
    expect(response.output[0]).toEqual(item);
    expect(response.status).toBe('incomplete');
    expect(response.output[1]!.status).toBe('incomplete');
  });

  it('streams added, in_progress, searching, completed and done for each search, then the text', async () => {
    const chunk = (delta: ChatCompletionChunk['choices'][number]['delta']): ChatCompletionChunk => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: null }],
    });
    const source = (async function* () {
      yield chunk({ role: 'assistant', content: '' });
      yield chunk({ web_search_calls: [search] });
      yield chunk({ content: 'Sunny.' });
    })();
    const events: ResponsesStreamEvent[] = [];
    for await (const event of convertChatStream(
      source,
      newResponseObject('resp_1', { model: 'm', input: 'x' }, 1, true),
    ))
      events.push(event);
    expect(events.slice(2, 7).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_item.done',
    ]);
    expect(events[2]).toMatchObject({ output_index: 0, item: { ...item, status: 'in_progress' } });
    expect(events[6]).toMatchObject({ output_index: 0, item });
    const completed = events.at(-1) as unknown as {
      type: string;
      response: { output: { type: string }[]; output_text: string };
    };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.output.map((output) => output.type)).toEqual(['web_search_call', 'message']);
    expect(completed.response.output_text).toBe('Sunny.');
  });
});
