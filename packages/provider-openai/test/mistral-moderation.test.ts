import { GatewayError, type ModerationRequest } from '@switchyard/core';
import { testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { OPENAI_MODERATION_CATEGORIES, mistralModerationDialect } from '../src/index.js';

const fixtures = testkitFixtures();
const context = { signal: new AbortController().signal, requestId: 'r', provider: 'mistral', warn: () => {} };
const request = (input: ModerationRequest['input']): ModerationRequest => ({
  model: 'mistral-moderation-latest',
  input,
});

describe('mistralModerationDialect', () => {
  it('sends strings as they are and text parts as strings', () => {
    expect(mistralModerationDialect.prepareRequest(request('hi'), context)).toEqual({
      model: 'mistral-moderation-latest',
      input: 'hi',
    });
    expect(
      mistralModerationDialect.prepareRequest(
        request([
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ]),
        context,
      ),
    ).toEqual({ model: 'mistral-moderation-latest', input: ['a', 'b'] });
  });

  it('refuses image inputs with a 400 naming the input', () => {
    const image = request([
      { type: 'text', text: 'a' },
      { type: 'image_url', image_url: { url: 'https://example.com/x.png' } },
    ]);
    const error = (() => {
      try {
        mistralModerationDialect.prepareRequest(image, context);
      } catch (e) {
        return e;
      }
    })();
    expect(GatewayError.isInstance(error)).toBe(true);
    expect((error as GatewayError).toJSON().error).toMatchObject({ param: 'input[1]', type: 'invalid_request_error' });
  });

  it("maps the recorded-shape answer to OpenAI's categories and keeps Mistral's own", () => {
    const answer = mistralModerationDialect.readAnswer('mistral', fixtures.json('mistral/mistral-moderation.json'));
    const [result] = answer.results;
    expect(answer).toMatchObject({
      id: '869e8cdec2d74e3ba5ecd2b310f75dc5',
      model: 'mistral-moderation-latest',
      usage: { prompt_tokens: 9, completion_tokens: 0, total_tokens: 9 },
    });
    expect(result!.flagged).toBe(false);
    for (const category of OPENAI_MODERATION_CATEGORIES)
      expect(typeof result!.category_scores[category]).toBe('number');
    expect(result!.category_scores.violence).toBe(0.00020342698553577);
    expect(result!.category_scores.hate).toBe(6.2050494307186e-5);
    expect(result!.category_scores.pii).toBe(0.00010889690747717);
    expect(result!.categories['harassment/threatening']).toBe(false);
  });

  it('flags a result when any Mistral category is true, and answers 502 for another shape', () => {
    const flagged = mistralModerationDialect.readAnswer('mistral', {
      id: 'x',
      model: 'm',
      results: [{ categories: { pii: true, selfharm: false }, category_scores: { pii: 0.9, selfharm: 0.01 } }],
    });
    expect(flagged.results[0]).toMatchObject({ flagged: true, categories: { pii: true, 'self-harm': false } });
    expect(() => mistralModerationDialect.readAnswer('mistral', { results: 'no' })).toThrow(
      expect.objectContaining({ status: 502 }),
    );
  });
});
