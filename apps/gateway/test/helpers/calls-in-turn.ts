import type OpenAI from 'openai';
import { expect } from 'vitest';

/**
 * Sends `count` chat calls to `gpt-4o` (`max_tokens` 5) with `client`, one after another, or until the first refusal
 * with `untilRefused`; counts the answers served and those refused with 429 `rate_limit_exceeded` (any other error
 * fails the test).
 */
export async function callsInTurn(
  client: OpenAI,
  count: number,
  untilRefused = false,
): Promise<{ served: number; refused: number }> {
  let served = 0;
  let refused = 0;
  for (let i = 0; i < count; i++) {
    try {
      await client.chat.completions.create({
        model: 'gpt-4o',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      });
      served++;
    } catch (error) {
      expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      refused++;
      if (untilRefused) break;
    }
  }
  return { served, refused };
}
