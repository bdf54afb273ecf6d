import { describe, expect, it } from 'vitest';
import { convertMessagesRequest, messagesRequestSchema, toAnthropicError } from '../src/index.js';
import { GatewayError } from '@switchyard/core';

const convert = (body: Record<string, unknown>) => convertMessagesRequest(messagesRequestSchema.parse({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...body }));

describe('convertMessagesRequest', () => {
  it('maps Anthropic fields to chat fields and warns about what it drops', () => {
    const { chatRequest, warnings } = convert({
      system: [{ type: 'text', text: 'Rules', cache_control: { type: 'ephemeral' } }],
      stop_sequences: ['X'],
      temperature: 0.3,
      top_p: 0.9,
      top_k: 5,
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'f', disable_parallel_tool_use: true },
      thinking: { type: 'enabled', budget_tokens: 2048 },
      metadata: { user_id: 'u1' },
      stream: true,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'sunny' }] }, { type: 'text', text: 'Thanks' }] },
      ],
    });
    expect(chatRequest).toEqual({
      model: 'm',
      max_tokens: 100,
      messages: [
        { role: 'system', content: 'Rules' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
        { role: 'tool', tool_call_id: 't1', content: 'sunny' },
        { role: 'user', content: 'Thanks' },
      ],
      stop: ['X'],
      temperature: 0.3,
      top_p: 0.9,
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      reasoning_effort: 'low',
      user: 'u1',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(warnings.map((w) => w.code).sort()).toEqual(['cache_control_dropped', 'thinking_dropped', 'top_k_dropped']);
  });

  it('rejects what another provider cannot take, naming the field', () => {
    expect(() => convert({ stop_sequences: ['a', 'b', 'c', 'd', 'e'] })).toThrow(expect.objectContaining({ status: 400, param: 'stop_sequences' }));
    expect(() => convert({ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64' } }] }] })).toThrow(
      expect.objectContaining({ status: 400, param: 'messages.0.content.0.type' }),
    );
  });
});

describe('toAnthropicError', () => {
  it('keeps the status and names the type as Anthropic does', () => {
    const error = new GatewayError({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Slow down', headers: { 'retry-after': '3' } });
    expect(toAnthropicError(error)).toEqual({ status: 429, headers: { 'retry-after': '3' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } } });
    expect(toAnthropicError(new Error('secret detail')).body.error).toEqual({ type: 'api_error', message: 'The gateway failed to process the request.' });
  });
});
