import { ADAPTER_SPEC_VERSION, type RoutePlan } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPLETION_TOKENS, estimateCall } from '../src/index.js';

const PRICE = { input: 2, output: 10 }; // USD per million tokens
const plan: RoutePlan = {
  model: 'm',
  models: [
    {
      id: 'm',
      strategy: 'round-robin',
      targets: [
        {
          model: 'm',
          provider: 'p',
          adapter: { specVersion: ADAPTER_SPEC_VERSION, adapter: 'test' },
          upstreamModel: 'u',
          price: PRICE,
          weight: 1,
          key: 'p/u',
        },
      ],
    },
  ],
};
const prompt = 'x'.repeat(400); // 100 prompt tokens at about 4 characters each

describe('estimateCall', () => {
  it('reserves completion tokens from each front door own limit field', () => {
    expect(
      estimateCall('chatCompletions', { messages: [{ role: 'user', content: prompt }], max_tokens: 50, n: 2 }, plan),
    ).toMatchObject({ promptTokens: 100, completionTokens: 100 });
    expect(
      estimateCall('anthropicMessages', { messages: [{ role: 'user', content: prompt }], max_tokens: 300 }, plan),
    ).toMatchObject({ promptTokens: 100, completionTokens: 300 });
    const responses = estimateCall('openaiResponses', { input: prompt, max_output_tokens: 200 }, plan);
    expect(responses).toMatchObject({ promptTokens: 100, completionTokens: 200, tokens: 300 });
    expect(responses.costUsd).toBeCloseTo((100 * PRICE.input + 200 * PRICE.output) / 1e6, 12);
    expect(estimateCall('openaiResponses', { input: prompt }, plan).completionTokens).toBe(DEFAULT_COMPLETION_TOKENS);
    expect(estimateCall('embeddings', { input: prompt }, plan).completionTokens).toBe(0);
  });
});
