import type { ChatCompletionChunk, ServerSentEvent } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { convertAnthropicResponse, convertAnthropicStream, convertToAnthropicRequest } from '../src/index.js';
import { chatRequest } from './support.js';

const searchUse = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'weather Paris' } };

async function* sse(events: readonly Record<string, unknown>[]): AsyncGenerator<ServerSentEvent> {
  for (const event of events) yield { event: event.type as string, data: JSON.stringify(event) } as ServerSentEvent;
}

describe('web_search_options -> Anthropic web search server tool', () => {
  it('adds the server tool after the client tools, with the approximate location', () => {
    const request = chatRequest({
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
      web_search_options: { user_location: { type: 'approximate', approximate: { city: 'Paris', country: 'FR' } } },
    });
    const { body, warnings } = convertToAnthropicRequest(request);
    expect(body.tools).toEqual([
      { name: 'f', input_schema: { type: 'object', properties: {} } },
      {
        type: 'web_search_20250305',
        name: 'web_search',
        user_location: { type: 'approximate', city: 'Paris', country: 'FR' },
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it('sends the bare tool for {} and warns that search_context_size has no equivalent', () => {
    expect(convertToAnthropicRequest(chatRequest({ web_search_options: {} })).body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search' },
    ]);
    const { warnings } = convertToAnthropicRequest(
      chatRequest({ web_search_options: { search_context_size: 'high' } }),
    );
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'unsupported_parameter', param: 'web_search_options.search_context_size' }),
    ]);
  });

  it('sends no tools without web_search_options, and 400 for a malformed one', () => {
    expect(convertToAnthropicRequest(chatRequest()).body.tools).toBeUndefined();
    expect(() =>
      convertToAnthropicRequest(chatRequest({ web_search_options: { search_context_size: 'huge' } })),
    ).toThrow(expect.objectContaining({ status: 400, param: 'web_search_options' }));
  });
});

describe('web searches in Anthropic answers -> message.web_search_calls', () => {
  it('reads server_tool_use blocks of a non-streamed answer; results stay out of the content', () => {
    const completion = convertAnthropicResponse({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        searchUse,
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_01',
          content: [{ type: 'web_search_result', url: 'https://example.com', title: 'x' }],
        },
        {
          type: 'text',
          text: 'Sunny.',
          citations: [{ type: 'web_search_result_location', url: 'https://example.com' }],
        },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 2 },
    } as never);
    expect(completion.choices[0]!.message).toMatchObject({
      content: 'Sunny.',
      web_search_calls: [{ id: 'srvtoolu_01', query: 'weather Paris' }],
    });
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });

  it('streams one web_search_calls delta when the search block ends, never as a tool call', async () => {
    const events = [
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { ...searchUse, input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query": "weath' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'er Paris"}' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [] },
      },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Sunny.' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ];
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of convertAnthropicStream(sse(events), {
      provider: 'anthropic',
      signal: new AbortController().signal,
    }))
      chunks.push(chunk);
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    expect(deltas.filter((delta) => delta.web_search_calls)).toEqual([
      { web_search_calls: [{ id: 'srvtoolu_01', query: 'weather Paris' }] },
    ]);
    expect(deltas.some((delta) => delta.tool_calls)).toBe(false);
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe('Sunny.');
    expect(chunks.flatMap((chunk) => chunk.choices).at(-1)!.finish_reason).toBe('stop');
  });
});

describe('web search citations -> url_citation annotations', () => {
  const cite = (url: string) => ({
    type: 'web_search_result_location',
    url,
    title: `T ${url}`,
    cited_text: 'x',
    encrypted_index: 'E',
  });
  const blocks = [
    { type: 'text', text: 'Intro 😀. ' },
    {
      type: 'text',
      text: 'Sunny in Paris.',
      citations: [cite('https://a.example'), { type: 'char_location', cited_text: 'doc' }],
    },
    { type: 'text', text: ' Warm.', citations: [{ ...cite('https://b.example'), title: null }] },
  ];
  const expected = [
    {
      type: 'url_citation',
      url_citation: { start_index: 10, end_index: 25, url: 'https://a.example', title: 'T https://a.example' },
    },
    {
      type: 'url_citation',
      url_citation: { start_index: 25, end_index: 31, url: 'https://b.example', title: 'https://b.example' },
    },
  ];

  it('spans each cited text block in the joined content (UTF-16 offsets), non-streamed', () => {
    const completion = convertAnthropicResponse({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: blocks,
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
    } as never);
    const message = completion.choices[0]!.message;
    expect(message.annotations).toEqual(expected);
    expect(message.content!.slice(10, 25)).toBe('Sunny in Paris.');
  });

  it('streams the annotations of a block when it ends, citations from its start and from citations_delta', async () => {
    const events: Record<string, unknown>[] = [
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ];
    blocks.forEach((block, index) => {
      const [first, ...rest] = block.citations ?? [];
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '', ...(first ? { citations: [first] } : {}) },
      });
      for (const citation of rest)
        events.push({ type: 'content_block_delta', index, delta: { type: 'citations_delta', citation } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text.slice(0, 4) } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text.slice(4) } });
      events.push({ type: 'content_block_stop', index });
    });
    events.push(
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    );
    const deltas: ChatCompletionChunk['choices'][number]['delta'][] = [];
    for await (const chunk of convertAnthropicStream(sse(events), {
      provider: 'anthropic',
      signal: new AbortController().signal,
    }))
      deltas.push(...chunk.choices.map((c) => c.delta));
    expect(deltas.flatMap((d) => d.annotations ?? [])).toEqual(expected);
    // Each block's annotations come right after its text.
    const kinds = deltas.map((d) => (d.annotations ? 'cite' : d.content ? 'text' : '')).filter(Boolean);
    expect(kinds).toEqual(['text', 'text', 'text', 'text', 'cite', 'text', 'text', 'cite']);
  });
});
