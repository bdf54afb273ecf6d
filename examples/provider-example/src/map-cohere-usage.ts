import type { CompletionUsage } from '@switchyard/core';
import type { CohereUsage } from './cohere-api.js';

/**
 * Cohere usage -> OpenAI usage, in tokens. Uses `tokens` (what the model processed, like OpenAI's counts), falling
 * back to `billed_units`; `cached_tokens` becomes `prompt_tokens_details.cached_tokens`. Total is the sum.
 */
export function mapCohereUsage(usage: CohereUsage | undefined): CompletionUsage | undefined {
  if (!usage) return undefined;
  const prompt = usage.tokens?.input_tokens ?? usage.billed_units?.input_tokens ?? 0;
  const completion = usage.tokens?.output_tokens ?? usage.billed_units?.output_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(usage.cached_tokens !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cached_tokens } } : {}),
  };
}
