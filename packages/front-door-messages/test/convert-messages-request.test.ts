import { describe, expect, it } from 'vitest';
import {
  convertMessagesRequest,
  messagesRequestSchema,
  toAnthropicError,
  validateCountTokensRequest,
  validateMessagesRequest,
} from '../src/index.js';
import { GatewayError } from '@switchyard/core';

const convert = (body: Record<string, unknown>) =>
  convertMessagesRequest(
    messagesRequestSchema.parse({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...body }),
  );

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
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm', signature: 's' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'sunny' }] },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ],
    });
    expect(chatRequest).toEqual({
      model: 'm',
      max_tokens: 100,
      messages: [
        { role: 'system', content: 'Rules' },
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
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
    expect(() => convert({ stop_sequences: ['a', 'b', 'c', 'd', 'e'] })).toThrow(
      expect.objectContaining({ status: 400, param: 'stop_sequences' }),
    );
    expect(() =>
      convert({ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64' } }] }] }),
    ).toThrow(expect.objectContaining({ status: 400, param: 'messages.0.content.0.type' }));
  });
});

describe('convertMessagesRequest with what Claude Code 2.1 sends', () => {
  it("turns role 'system' entries of messages[] into system messages in place", () => {
    const { chatRequest } = convert({
      messages: [
        { role: 'user', content: 'List files' },
        {
          role: 'system',
          content: [
            { type: 'text', text: '# Environment' },
            { type: 'text', text: ' linux' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] },
        { role: 'system', content: 'Reminder' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.txt' }] },
      ],
    });
    expect((chatRequest.messages as { role: string; content: unknown }[]).map((m) => [m.role, m.content])).toEqual([
      ['user', 'List files'],
      ['system', '# Environment linux'],
      ['assistant', null],
      ['system', 'Reminder'],
      ['tool', 'a.txt'],
    ]);
  });

  it('maps output_config.effort and format, thinking, and drops the rest with a warning naming each field', () => {
    const { chatRequest, warnings } = convert({
      thinking: { type: 'adaptive', display: 'omitted' },
      output_config: { effort: 'max', format: { type: 'json_schema', schema: { type: 'object' } }, task_budget: 5 },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      container: 'c1',
      tools: [
        { name: 'Bash', input_schema: { type: 'object' } },
        { name: 'Later', input_schema: { type: 'object' }, defer_loading: true, cache_control: { type: 'ephemeral' } },
        { type: 'web_search_20250305', name: 'web_search' },
      ],
      tool_choice: { type: 'auto' },
    });
    expect(chatRequest.reasoning_effort).toBe('xhigh');
    expect(chatRequest.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'output', schema: { type: 'object' }, strict: true },
    });
    expect((chatRequest.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([
      'Bash',
      'Later',
    ]);
    expect(chatRequest).not.toHaveProperty('context_management');
    expect(chatRequest).not.toHaveProperty('container');
    expect(
      warnings
        .map((w) => w.param)
        .filter(Boolean)
        .sort(),
    ).toEqual([
      'container',
      'context_management',
      'output_config.task_budget',
      'tools.2',
      'tools[].cache_control',
      'tools[].defer_loading',
    ]);
  });

  it('takes the effort from thinking alone, and drops Anthropic-only blocks instead of refusing them', () => {
    const { chatRequest, warnings } = convert({
      thinking: { type: 'enabled', budget_tokens: 31999 },
      messages: [
        { role: 'user', content: 'Search' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} },
            { type: 'text', text: 'Found' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'web_search_tool_result', tool_use_id: 's1', content: [] },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
    });
    expect(chatRequest.reasoning_effort).toBe('xhigh');
    expect((chatRequest.messages as { content: unknown }[]).map((m) => m.content)).toEqual(['Search', 'Found', 'ok']);
    expect(warnings.map((w) => w.code).sort()).toEqual(['server_tool_use_dropped', 'web_search_tool_result_dropped']);
  });

  it('refuses what Anthropic refuses too: empty messages, an unknown block type, more than 10,000 messages', () => {
    expect(messagesRequestSchema.safeParse({ model: 'm', max_tokens: 1, messages: [] }).success).toBe(false);
    expect(
      messagesRequestSchema.safeParse({
        model: 'm',
        max_tokens: 1,
        messages: [{ role: 'user', content: [{ type: 'nonsense' }] }],
      }).success,
    ).toBe(false);
    const many = Array.from({ length: 10_001 }, () => ({ role: 'user', content: 'x' }));
    expect(() => validateMessagesRequest({ model: 'm', max_tokens: 1, messages: many })).toThrow(
      expect.objectContaining({ status: 400, param: 'messages' }),
    );
    expect(() => validateCountTokensRequest({ model: 'm', messages: [] })).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    expect(
      validateCountTokensRequest({
        model: 'm',
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'u' },
        ],
      }).messages,
    ).toHaveLength(2);
  });
});

describe('toAnthropicError', () => {
  it('keeps the status and names the type as Anthropic does', () => {
    const error = new GatewayError({
      status: 429,
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      message: 'Slow down',
      headers: { 'retry-after': '3' },
    });
    expect(toAnthropicError(error)).toEqual({
      status: 429,
      headers: { 'retry-after': '3' },
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
    });
    expect(toAnthropicError(new Error('secret detail')).body.error).toEqual({
      type: 'api_error',
      message: 'The gateway failed to process the request.',
    });
  });
});
