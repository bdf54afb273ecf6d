import { GatewayError } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import {
  convertItemsToChatMessages,
  convertResponsesRequest,
  normalizeInputItems,
  responsesRequestSchema,
} from '../src/index.js';

const convert = (body: Record<string, unknown>) => {
  const request = responsesRequestSchema.parse({ model: 'm', input: 'hi', ...body });
  return convertResponsesRequest(request, [], convertItemsToChatMessages(normalizeInputItems(request.input)));
};

describe('convertResponsesRequest', () => {
  it('maps the Responses fields to chat fields', () => {
    expect(
      convert({
        instructions: 'Be brief.',
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: true }],
        tool_choice: { type: 'function', name: 'f' },
        parallel_tool_calls: false,
        text: { format: { type: 'json_object' } },
        temperature: 0.5,
        top_p: 0.9,
        max_output_tokens: 100,
        reasoning: { effort: 'low' },
        metadata: { a: 'b' },
        user: 'u',
        stream: true,
        store: false,
      }),
    ).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' }, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_object' },
      temperature: 0.5,
      top_p: 0.9,
      max_completion_tokens: 100,
      reasoning_effort: 'low',
      user: 'u',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('rejects what it cannot translate, naming the field', () => {
    const param = (body: Record<string, unknown>) => {
      try {
        convert(body);
      } catch (error) {
        return GatewayError.isInstance(error) ? `${error.status} ${error.param}` : String(error);
      }
      return 'no error';
    };
    expect(param({ tools: [{ type: 'function', name: 'f' }, { type: 'custom' }] })).toBe('400 tools[1]');
    expect(param({ background: true })).toBe('400 background');
    expect(param({ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] })).toBe(
      '400 input[0].content[0].image_url',
    );
  });
});

describe('convertItemsToChatMessages', () => {
  it('joins function calls to the assistant message before them and turns outputs into tool messages', () => {
    const items = normalizeInputItems([
      { role: 'developer', content: 'Rules' },
      { role: 'user', content: 'Weather?' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
      { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'c2', name: 'weather', arguments: '{"city":"Rome"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
      { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'rain' }] },
      { type: 'reasoning', id: 'rs_1', summary: [] },
    ]);
    expect(items.every((item) => typeof item.id === 'string')).toBe(true);
    expect(convertItemsToChatMessages(items)).toEqual([
      { role: 'developer', content: 'Rules' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'c2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'c2', content: 'rain' },
    ]);
  });

  it('names the item of an unsupported type', () => {
    expect(() =>
      normalizeInputItems([
        { role: 'user', content: 'x' },
        { type: 'teleport_call', id: 'x' },
      ]),
    ).toThrow(expect.objectContaining({ status: 400, param: 'input[1]', code: 'unsupported_value' }));
  });
});
