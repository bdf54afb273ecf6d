import { describe, expect, it } from 'vitest';
import { convertToAnthropicRequest, DEFAULT_MAX_TOKENS } from '../src/index.js';
import { chatRequest } from './support.js';

const body = (extra: Record<string, unknown> = {}, defaults = {}) =>
  convertToAnthropicRequest(chatRequest(extra), defaults).body;

describe('convertToAnthropicRequest', () => {
  it('translates a typical request field by field', () => {
    expect(
      body({
        model: 'claude-sonnet-4-5-20250929',
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: 'Say hello.' },
        ],
        temperature: 0.5,
        top_p: 0.9,
        max_tokens: 64,
        stop: ['END'],
        user: 'user-42',
        stream: true,
        stream_options: { include_usage: true },
      }),
    ).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      system: 'You are a helpful assistant.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
      max_tokens: 64,
      temperature: 0.5,
      top_p: 0.9,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-42' },
      stream: true,
    });
  });

  it('always sends max_tokens: the request, then the per-model default, then the configured default, then 4096', () => {
    const defaults = {
      defaultMaxTokens: 1024,
      maxTokensByModel: { 'claude-sonnet-4-5': 16384, 'claude-sonnet-4-5-20250929': 8192, claude: 2048 },
    };
    expect(body({ max_tokens: 10 }, defaults).max_tokens).toBe(10);
    expect(body({ max_completion_tokens: 11, max_tokens: 10 }, defaults).max_tokens).toBe(11);
    expect(body({}, defaults).max_tokens).toBe(8192);
    expect(body({ model: 'claude-sonnet-4-5-20990101' }, defaults).max_tokens).toBe(16384);
    expect(body({ model: 'claude-opus-4-1' }, defaults).max_tokens).toBe(2048);
    expect(body({ model: 'other' }, defaults).max_tokens).toBe(1024);
    expect(body({}).max_tokens).toBe(DEFAULT_MAX_TOKENS);
    expect(DEFAULT_MAX_TOKENS).toBe(4096);
  });

  it('maps stop (a string or a list) to stop_sequences', () => {
    expect(body({ stop: 'END' }).stop_sequences).toEqual(['END']);
    expect(body({ stop: ['a', 'b'] }).stop_sequences).toEqual(['a', 'b']);
    expect(body({})).not.toHaveProperty('stop_sequences');
  });

  it('passes temperature, top_p and top_k, and leaves them out when not given', () => {
    expect(body({ temperature: 0, top_p: 1, top_k: 40 })).toMatchObject({ temperature: 0, top_p: 1, top_k: 40 });
    expect(Object.keys(body({})).sort()).toEqual(['max_tokens', 'messages', 'model']);
  });

  it('maps user to metadata.user_id', () => {
    expect(body({ user: 'end-user-7' }).metadata).toEqual({ user_id: 'end-user-7' });
  });

  it('reports JSON mode and dropped parameters next to the body', () => {
    const prepared = convertToAnthropicRequest(chatRequest({ response_format: { type: 'json_object' }, seed: 1 }));
    expect(prepared.jsonMode).toBe(true);
    expect(prepared.warnings.map((w) => w.param)).toEqual(['seed']);
    expect(convertToAnthropicRequest(chatRequest()).jsonMode).toBe(false);
  });
});
