import { describe, expect, it } from 'vitest';
import {
  type ChatCompletionChunk,
  chatCompletionChunkSchema,
  checkChatCompletionChunk,
  encodeSSEData,
  isPlainChatCompletionChunk,
  rememberJsonText,
  toJsonText,
  wrapChunkStream,
} from '../src/index.js';

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};
async function* of<T>(...items: T[]): AsyncGenerator<T> {
  yield* items;
}
/** Parses `text` the way an adapter does and remembers it as the object's JSON text. */
const parsed = <T extends object>(text: string): T => {
  const value = JSON.parse(text) as T;
  rememberJsonText(value, text);
  return value;
};

const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };

describe('the hand-written chunk check agrees with the zod schema', () => {
  const cases: [string, unknown][] = [
    ['text delta', { ...base, choices: [{ index: 0, delta: { content: 'hi' }, logprobs: null, finish_reason: null }] }],
    ['role and extra fields', { ...base, system_fingerprint: 'fp', service_tier: 'x', choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null } }] }],
    ['finish reason', { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
    ['no choices', { ...base, choices: [] }],
    ['reasoning content', { ...base, choices: [{ index: 0, delta: { reasoning_content: 'hmm' } }] }],
    ['bad finish reason', { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'done' }] }],
    ['bad role', { ...base, choices: [{ index: 0, delta: { role: 'robot' } }] }],
    ['content not a string', { ...base, choices: [{ index: 0, delta: { content: 5 } }] }],
    ['index not an integer', { ...base, choices: [{ index: 0.5, delta: {} }] }],
    ['delta is an array', { ...base, choices: [{ index: 0, delta: [] }] }],
    ['created missing', { id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [] }],
    ['wrong object', { ...base, object: 'chat.completion', choices: [] }],
    ['choices not an array', { ...base, choices: {} }],
    ['system_fingerprint a number', { ...base, system_fingerprint: 1, choices: [] }],
    ['tool calls (left to zod)', { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{' } }] } }] }],
    ['bad tool calls (left to zod)', { ...base, choices: [{ index: 0, delta: { tool_calls: [{ function: {} }] } }] }],
    ['usage (left to zod)', { ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }],
    ['bad usage (left to zod)', { ...base, choices: [], usage: { prompt_tokens: 'one' } }],
  ];
  for (const [name, value] of cases) {
    it(name, () => {
      const zod = chatCompletionChunkSchema.safeParse(value).success;
      // The fast check never accepts what zod refuses; the combined check answers as zod does.
      if (isPlainChatCompletionChunk(value)) expect(zod).toBe(true);
      expect(checkChatCompletionChunk(value).success).toBe(zod);
    });
  }
});

describe('forwarding upstream JSON text', () => {
  it('sends an unchanged chunk as the upstream sent it, and a changed or rebuilt one re-encoded', async () => {
    const text = '{"id":"c1", "object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"}}]}';
    const usageText = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":9}}';
    const okUsageText = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":5}}';
    const out = await collect(wrapChunkStream(of(parsed<ChatCompletionChunk>(text), parsed<ChatCompletionChunk>(usageText), parsed<ChatCompletionChunk>(okUsageText))));
    // The space after the first comma shows these are the upstream's own bytes.
    expect(encodeSSEData(out[0])).toBe(`data: ${text}\n\n`);
    // total_tokens was corrected to prompt + completion: the text must not be the upstream's any more.
    expect(JSON.parse(toJsonText(out[1])).usage.total_tokens).toBe(5);
    expect(toJsonText(out[2])).toBe(okUsageText);
    // A copy never carries the text of its original.
    expect(toJsonText({ ...out[0] })).toBe(JSON.stringify(out[0]));
  });

  it('does not remember text that spans lines (it could not be one data: line)', () => {
    const value = { a: 1 };
    rememberJsonText(value, '{\n"a": 1}');
    expect(encodeSSEData(value)).toBe('data: {"a":1}\n\n');
  });
});
