import { describe, expect, it } from 'vitest';
import {
  type ChatCompletionChunk,
  type EmbeddingResponse,
  chatCompletionChunkSchema,
  chatCompletionSchema,
  checkChatCompletionChunk,
  embeddingResponseSchema,
  encodeSSEData,
  isPlainChatCompletion,
  isPlainChatCompletionChunk,
  isPlainEmbeddingResponse,
  rememberJsonText,
} from '../src/index.js';
import { normalizeEmbeddings } from '../src/gateway/normalize-embeddings.js';
import { wrapChunkStream } from '../src/gateway/wrap-chunk-stream.js';
import { toJsonText } from '../src/utils/raw-json-text.js';

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
    [
      'role and extra fields',
      {
        ...base,
        system_fingerprint: 'fp',
        service_tier: 'x',
        choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null } }],
      },
    ],
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
    [
      'tool calls (left to zod)',
      { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{' } }] } }] },
    ],
    ['bad tool calls (left to zod)', { ...base, choices: [{ index: 0, delta: { tool_calls: [{ function: {} }] } }] }],
    [
      'usage (left to zod)',
      { ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
    ],
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

const completion = {
  id: 'x',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop', logprobs: null }],
};
const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };

describe('the hand-written completion and embeddings checks agree with the zod schemas', () => {
  const completions: [string, unknown][] = [
    ['text answer', completion],
    [
      'with usage and details',
      {
        ...completion,
        usage: { ...usage, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: null },
      },
    ],
    [
      'refusal and reasoning text',
      {
        ...completion,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, refusal: 'no', reasoning_content: 'hm' },
            finish_reason: 'stop',
          },
        ],
      },
    ],
    [
      'finish_reason missing',
      { ...completion, choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }] },
    ],
    [
      'finish_reason null',
      { ...completion, choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: null }] },
    ],
    [
      'role not assistant',
      { ...completion, choices: [{ index: 0, message: { role: 'user', content: 'hi' }, finish_reason: 'stop' }] },
    ],
    ['usage with a fractional count', { ...completion, usage: { ...usage, total_tokens: 3.5 } }],
    [
      'usage details of the wrong type',
      { ...completion, usage: { ...usage, prompt_tokens_details: { cached_tokens: '1' } } },
    ],
    [
      'tool calls (left to zod)',
      {
        ...completion,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
    ],
    ['wrong object', { ...completion, object: 'chat.completion.chunk' }],
  ];
  for (const [name, value] of completions) {
    it(`completion: ${name}`, () => {
      if (isPlainChatCompletion(value)) expect(chatCompletionSchema.safeParse(value).success).toBe(true);
    });
  }
  it('accepts the common shapes on the fast path', () => {
    expect(isPlainChatCompletion(completions[0]![1])).toBe(true);
    expect(isPlainChatCompletion(completions[1]![1])).toBe(true);
  });
  const embeddings = (embedding: unknown, extra: object = {}) => ({
    object: 'list',
    model: 'e',
    data: [{ object: 'embedding', index: 0, embedding }],
    usage: { prompt_tokens: 1, total_tokens: 1 },
    ...extra,
  });
  const answers: [string, unknown, boolean][] = [
    ['floats', embeddings([0.1, -2, 3e-5]), true],
    ['base64', embeddings('AAAA'), true],
    ['a string in the vector', embeddings([0.1, '2']), false],
    ['usage missing', embeddings([1], { usage: undefined }), false],
    ['object not embedding', { ...embeddings([1]), data: [{ object: 'x', index: 0, embedding: [1] }] }, false],
  ];
  for (const [name, value, plain] of answers) {
    it(`embeddings: ${name}`, () => {
      expect(isPlainEmbeddingResponse(value)).toBe(plain);
      if (plain) expect(embeddingResponseSchema.safeParse(value).success).toBe(true);
    });
  }
});

describe('forwarding upstream JSON text', () => {
  it('forgets the text of an embeddings answer converted to the asked encoding, and keeps it otherwise', () => {
    const text =
      '{"object":"list","model":"e","data":[{"object":"embedding","index":0,"embedding":[0.5, 1]}],"usage":{"prompt_tokens":1,"total_tokens":1}}';
    expect(toJsonText(normalizeEmbeddings(parsed<EmbeddingResponse>(text), 'float'))).toBe(text);
    const converted = normalizeEmbeddings(parsed<EmbeddingResponse>(text), 'base64');
    expect(JSON.parse(toJsonText(converted)).data[0].embedding).toBe(
      Buffer.from(Float32Array.from([0.5, 1]).buffer).toString('base64'),
    );
  });

  it('sends an unchanged chunk as the upstream sent it, and a changed or rebuilt one re-encoded', async () => {
    const text =
      '{"id":"c1", "object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"}}]}';
    const usageText =
      '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":9}}';
    const okUsageText =
      '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":5}}';
    const out = await collect(
      wrapChunkStream(
        of(
          parsed<ChatCompletionChunk>(text),
          parsed<ChatCompletionChunk>(usageText),
          parsed<ChatCompletionChunk>(okUsageText),
        ),
      ),
    );
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
