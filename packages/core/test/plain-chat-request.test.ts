import { describe, expect, it } from 'vitest';
import { chatCompletionRequestSchema, isPlainChatCompletionRequest } from '../src/index.js';

const messages = [{ role: 'user', content: 'hi' }];
const base = { model: 'gpt-4.1-nano', messages };

// Every case: the hand-written check may only accept what zod accepts; the common shapes must take the fast path.
const cases: [string, unknown, boolean?][] = [
  ['bench body', { ...base, temperature: 0.7 }, true],
  ['stream with usage', { ...base, stream: true, stream_options: { include_usage: true } }, true],
  [
    'every simple field',
    {
      ...base,
      top_p: 1,
      n: 2,
      max_tokens: 5,
      max_completion_tokens: 5,
      presence_penalty: -2,
      frequency_penalty: 2,
      logprobs: true,
      top_logprobs: 20,
      seed: -3,
      user: 'u',
      parallel_tool_calls: false,
      stop: 'x',
      store: true,
    },
    true,
  ],
  [
    'nulls',
    { ...base, temperature: null, top_p: null, n: null, stream: null, stream_options: null, stop: null, seed: null },
    true,
  ],
  [
    'system, developer, assistant, names',
    {
      ...base,
      messages: [
        { role: 'system', content: 's' },
        { role: 'developer', content: 'd', name: 'n' },
        { role: 'assistant', content: 'a' },
        { role: 'user', content: 'u' },
      ],
    },
    true,
  ],
  ['temperature above 2', { ...base, temperature: 2.5 }],
  ['temperature a string', { ...base, temperature: '1' }],
  ['top_p above 1', { ...base, top_p: 1.1 }],
  ['n 0', { ...base, n: 0 }],
  ['n fractional', { ...base, n: 1.5 }],
  ['max_tokens 0', { ...base, max_tokens: 0 }],
  ['top_logprobs 21', { ...base, top_logprobs: 21 }],
  ['stream a string', { ...base, stream: 'yes' }],
  ['stream_options an array', { ...base, stream_options: [] }],
  ['include_usage a string', { ...base, stream_options: { include_usage: 'yes' } }],
  ['user null', { ...base, user: null }],
  ['parallel_tool_calls null', { ...base, parallel_tool_calls: null }],
  ['stop list', { ...base, stop: ['a', 'b'] }],
  ['stop list too long', { ...base, stop: ['a', 'b', 'c', 'd', 'e'] }],
  ['tools', { ...base, tools: [{ type: 'function', function: { name: 'f' } }] }],
  ['bad tools', { ...base, tools: [{ type: 'function' }] }],
  ['response_format', { ...base, response_format: { type: 'json_object' } }],
  ['bad response_format', { ...base, response_format: { type: 'yaml' } }],
  ['logit_bias', { ...base, logit_bias: { '1': 'x' } }],
  ['reasoning_effort', { ...base, reasoning_effort: 'extreme' }],
  ['no messages', { model: 'm', messages: [] }],
  ['messages not an array', { model: 'm', messages: {} }],
  ['model missing', { messages }],
  ['model with a space', { ...base, model: 'a b' }],
  ['model too long', { ...base, model: 'm'.repeat(257) }],
  ['unknown role', { ...base, messages: [{ role: 'robot', content: 'x' }] }],
  ['content parts', { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }],
  ['content a number', { ...base, messages: [{ role: 'user', content: 1 }] }],
  ['name a number', { ...base, messages: [{ role: 'user', content: 'x', name: 1 }] }],
  ['tool message', { ...base, messages: [{ role: 'tool', content: 'x', tool_call_id: 't' }] }],
  ['assistant tool calls', { ...base, messages: [{ role: 'assistant', content: 'x', tool_calls: [] }] }],
  ['message an array', { ...base, messages: [[]] }],
];

describe('isPlainChatCompletionRequest', () => {
  for (const [name, body, fast] of cases) {
    it(name, () => {
      const zod = chatCompletionRequestSchema.safeParse(body).success;
      if (isPlainChatCompletionRequest(body)) expect(zod).toBe(true);
      if (fast) expect(isPlainChatCompletionRequest(body)).toBe(true);
    });
  }
});
