import { GatewayError } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { convertToConverseRequest } from '../src/index.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function rejection(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('convertToConverseRequest', () => {
  it('translates system, images as bytes, tool calls and merged tool results', () => {
    const { body } = convertToConverseRequest({
      model: 'anthropic.claude-3-5-sonnet-20241022-v2:0',
      max_completion_tokens: 100,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use tools.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is here, and the weather?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18C' },
        { role: 'tool', tool_call_id: 'call_2', content: '3C' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Weather by city',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
    });
    expect(body).toEqual({
      system: [{ text: 'Be brief.' }, { text: 'Use tools.' }],
      messages: [
        {
          role: 'user',
          content: [{ text: 'What is here, and the weather?' }, { image: { format: 'png', source: { bytes: PNG } } }],
        },
        {
          role: 'assistant',
          content: [
            { toolUse: { toolUseId: 'call_1', name: 'weather', input: { city: 'Paris' } } },
            { toolUse: { toolUseId: 'call_2', name: 'weather', input: { city: 'Oslo' } } },
          ],
        },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 'call_1', content: [{ text: '18C' }] } },
            { toolResult: { toolUseId: 'call_2', content: [{ text: '3C' }] } },
            { text: 'Thanks' },
          ],
        },
      ],
      inferenceConfig: { maxTokens: 100 },
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'weather',
              description: 'Weather by city',
              inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } },
            },
          },
        ],
        toolChoice: { tool: { name: 'weather' } },
      },
    });
  });

  it('maps tool_choice required to any, and none to no tools', () => {
    const tools = [{ type: 'function' as const, function: { name: 'f' } }];
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect(convertToConverseRequest({ model: 'm', messages, tools, tool_choice: 'required' }).body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object', properties: {} } } } }],
      toolChoice: { any: {} },
    });
    expect(
      convertToConverseRequest({ model: 'm', messages, tools, tool_choice: 'none' }).body.toolConfig,
    ).toBeUndefined();
  });

  it('refuses web image URLs, naming the content part', () => {
    const error = rejection(() =>
      convertToConverseRequest({
        model: 'm',
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] },
        ],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe('messages[0].content[0].image_url.url');
  });

  it('refuses tool call arguments that are not JSON', () => {
    const error = rejection(() =>
      convertToConverseRequest({
        model: 'm',
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{oops' } }],
          },
        ],
      }),
    );
    expect(error.param).toBe('messages[0].tool_calls[0].function.arguments');
  });

  it('rejects what Converse cannot honour and warns about dropped hints', () => {
    expect(
      rejection(() => convertToConverseRequest({ model: 'm', n: 2, messages: [{ role: 'user', content: 'x' }] })).param,
    ).toBe('n');
    expect(
      rejection(() =>
        convertToConverseRequest({ model: 'm', presence_penalty: 1, messages: [{ role: 'user', content: 'x' }] }),
      ).param,
    ).toBe('presence_penalty');
    expect(
      rejection(() =>
        convertToConverseRequest({
          model: 'm',
          response_format: { type: 'json_object' },
          messages: [{ role: 'user', content: 'x' }],
        }),
      ).param,
    ).toBe('response_format');
    const { warnings } = convertToConverseRequest({
      model: 'm',
      seed: 7,
      user: 'u1',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(warnings.map((w) => w.param)).toEqual(['seed', 'user']);
  });

  it('warns that parallel_tool_calls, web_search_options and unknown fields were ignored (Converse has none of them)', () => {
    const { warnings } = convertToConverseRequest({
      model: 'm',
      parallel_tool_calls: false,
      web_search_options: {},
      x_future_parameter: 1,
      messages: [{ role: 'user', content: 'x' }],
    } as Parameters<typeof convertToConverseRequest>[0]);
    expect(warnings).toEqual([
      {
        code: 'unsupported_parameter',
        param: 'parallel_tool_calls',
        message: "'parallel_tool_calls' is not supported by Bedrock models and was ignored.",
      },
      expect.objectContaining({ param: 'web_search_options' }),
      expect.objectContaining({ param: 'x_future_parameter' }),
    ]);
  });
});
