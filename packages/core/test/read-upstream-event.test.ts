import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  GatewayError,
  chatCompletionSchema,
  isPlainUsage,
  readUpstreamEvent,
  upstreamFixedAnswerOf,
} from '../src/index.js';
import { upstreamJsonOf } from '../src/utils/upstream-request.js';

const eventSchema = z.looseObject({
  type: z.string(),
  usage: z.looseObject({ input_tokens: z.number().int().min(0) }).optional(),
});

const failure = (run: () => unknown): GatewayError => {
  try {
    run();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('did not throw');
};

describe('readUpstreamEvent', () => {
  it('returns the checked event with its unknown fields', () => {
    expect(readUpstreamEvent('acme', eventSchema, '{"type":"delta","extra":[1]}')).toEqual({
      type: 'delta',
      extra: [1],
    });
  });

  it('refuses text that is not JSON, and an event of the wrong shape, as 502 upstream_invalid_response naming the provider and field', () => {
    const notJson = failure(() => readUpstreamEvent('acme', eventSchema, '{"type":'));
    expect([notJson.status, notJson.code]).toEqual([502, 'upstream_invalid_response']);
    expect(notJson.message).toBe(
      "The upstream provider 'acme' sent an invalid response: a stream event is not valid JSON.",
    );
    const wrong = failure(() =>
      readUpstreamEvent('acme', eventSchema, '{"type":"delta","usage":{"input_tokens":-3}}', "a 'delta' event"),
    );
    expect(wrong.status).toBe(502);
    expect(wrong.message).toMatch(
      /^The upstream provider 'acme' sent an invalid response: a 'delta' event does not have the documented shape \(usage\.input_tokens: /,
    );
  });
});

describe('upstreamJsonOf and upstreamFixedAnswerOf', () => {
  const completion = {
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  };

  it('reads a body through its schema', () => {
    expect(upstreamJsonOf('acme', Buffer.from('{"type":"x","n":1}'), eventSchema)).toEqual({ type: 'x', n: 1 });
    expect(failure(() => upstreamJsonOf('acme', Buffer.from('[]'), eventSchema)).message).toContain('(body: ');
  });

  it("checks a preset's repair, and reports a repair that throws on a malformed body as the body's shape error", () => {
    const fix = (value: z.infer<typeof chatCompletionSchema>) => ({
      ...value,
      choices: value.choices.map((c) => ({ ...c, repaired: true })),
    });
    expect(
      upstreamFixedAnswerOf('acme', Buffer.from(JSON.stringify(completion)), chatCompletionSchema, fix).choices[0],
    ).toMatchObject({ repaired: true });
    const error = failure(() =>
      upstreamFixedAnswerOf(
        'acme',
        Buffer.from(JSON.stringify({ ...completion, choices: 'none' })),
        chatCompletionSchema,
        fix,
      ),
    );
    expect([error.status, error.code]).toEqual([502, 'upstream_invalid_response']);
    expect(error.message).toContain('choices: ');
  });
});

describe('token counts', () => {
  it('are non-negative safe integers in the hand-written check and in zod', () => {
    for (const prompt_tokens of [-1, 1.5, 2 ** 60, '3']) {
      const usage = { prompt_tokens, completion_tokens: 1, total_tokens: 2 };
      expect(isPlainUsage(usage)).toBe(false);
      expect(chatCompletionSchema.shape.usage.safeParse(usage).success).toBe(false);
    }
    expect(isPlainUsage({ prompt_tokens: 0, completion_tokens: 1, total_tokens: 1 })).toBe(true);
  });
});
