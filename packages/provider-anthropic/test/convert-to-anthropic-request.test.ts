import type { ChatCompletionRequest } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_TOKENS, convertToAnthropicRequest } from '../src/index.js';

const req = (extra: Partial<ChatCompletionRequest>): ChatCompletionRequest => ({ model: 'claude', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('convertToAnthropicRequest', () => {
  it('moves system and developer messages to the top-level system and merges consecutive roles', () => {
    const body = convertToAnthropicRequest(
      req({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'Use English.' }] },
          { role: 'user', content: 'One.' },
          { role: 'user', content: 'Two.' },
          { role: 'assistant', content: 'Ok.' },
          { role: 'assistant', content: 'Really.' },
        ],
      }),
    );
    expect(body.system).toBe('Be brief.\n\nUse English.');
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'One.' }, { type: 'text', text: 'Two.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Ok.' }, { type: 'text', text: 'Really.' }] },
    ]);
  });

  it('always sends max_tokens: the request, then the per-model default, then the fallback', () => {
    expect(convertToAnthropicRequest(req({ max_tokens: 10 })).max_tokens).toBe(10);
    expect(convertToAnthropicRequest(req({ max_completion_tokens: 11, max_tokens: 10 })).max_tokens).toBe(11);
    expect(convertToAnthropicRequest(req({}), { byModel: { claude: 2048 }, fallback: 99 }).max_tokens).toBe(2048);
    expect(convertToAnthropicRequest(req({}), { fallback: 99 }).max_tokens).toBe(99);
    expect(convertToAnthropicRequest(req({})).max_tokens).toBe(DEFAULT_MAX_TOKENS);
  });

  it('maps stop, temperature, top_p and user', () => {
    expect(convertToAnthropicRequest(req({ stop: 'END', temperature: 0.7, top_p: 0.9, user: 'u1' }))).toMatchObject({
      stop_sequences: ['END'],
      temperature: 0.7,
      top_p: 0.9,
      metadata: { user_id: 'u1' },
    });
  });

  it.each([
    ['temperature', { temperature: 1.5 }],
    ['presence_penalty', { presence_penalty: 0.5 }],
    ['frequency_penalty', { frequency_penalty: -1 }],
    ['logit_bias', { logit_bias: { '50256': -100 } }],
    ['logprobs', { logprobs: true }],
    ['seed', { seed: 7 }],
    ['response_format', { response_format: { type: 'json_object' } }],
  ])('rejects %s with a 400 naming it, before sending', (param, extra) => {
    expect(() => convertToAnthropicRequest(req(extra as Partial<ChatCompletionRequest>))).toThrow(expect.objectContaining({ status: 400, param, code: 'unsupported_parameter' }));
  });

  it('accepts neutral values of unsupported parameters without sending them', () => {
    const body = convertToAnthropicRequest(req({ presence_penalty: 0, frequency_penalty: 0, logit_bias: {}, logprobs: false, response_format: { type: 'text' } }));
    expect(Object.keys(body).sort()).toEqual(['max_tokens', 'messages', 'model']);
  });

  it('translates tools, tool_choice and parallel_tool_calls', () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    expect(convertToAnthropicRequest(req({ tools }))).toMatchObject({
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    expect(convertToAnthropicRequest(req({ tools, tool_choice: 'auto' })).tool_choice).toEqual({ type: 'auto' });
    expect(convertToAnthropicRequest(req({ tools, tool_choice: 'none' })).tool_choice).toEqual({ type: 'none' });
    expect(convertToAnthropicRequest(req({ tools, tool_choice: 'required', parallel_tool_calls: false })).tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(convertToAnthropicRequest(req({ tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } })).tool_choice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  it('turns assistant tool_calls into tool_use blocks and tool messages into tool_result blocks in one user turn', () => {
    const body = convertToAnthropicRequest(
      req({
        messages: [
          { role: 'user', content: 'Weather in Paris and Rome?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: '18C' },
          { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '25C' }] },
        ],
      }),
    );
    expect(body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '25C' },
        ],
      },
    ]);
  });

  it('rejects tool arguments that are not JSON, naming the field', () => {
    expect(() =>
      convertToAnthropicRequest(req({ messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{oops' } }] }] })),
    ).toThrow(expect.objectContaining({ status: 400, param: 'messages[0].tool_calls[0].function.arguments' }));
  });

  it('converts image parts: data URLs to base64 sources, https URLs to url sources', () => {
    const body = convertToAnthropicRequest(
      req({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            ],
          },
        ],
      }),
    );
    expect(body.messages[0]!.content).toEqual([
      { type: 'text', text: 'Compare' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
    expect(() => convertToAnthropicRequest(req({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x' } }] }] }))).toThrow(
      expect.objectContaining({ param: 'messages[0].content[0].image_url.url' }),
    );
  });
});
