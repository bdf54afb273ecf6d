import type { CompletionUsage } from '@switchyard/core';
import type { GeminiUsageMetadata } from './gemini-types.js';

/**
 * Gemini `usageMetadata` -> OpenAI usage, in tokens: `promptTokenCount` -> `prompt_tokens`; `candidatesTokenCount` +
 * `thoughtsTokenCount` -> `completion_tokens` (thinking tokens are billed as output, and Gemini's total counts them),
 * with `completion_tokens_details.reasoning_tokens` = thoughts; `cachedContentTokenCount` -> cached tokens.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export function mapGeminiUsage(usage: GeminiUsageMetadata): CompletionUsage {
  const prompt = usage.promptTokenCount ?? 0;
  const thoughts = usage.thoughtsTokenCount ?? 0;
  const completion = (usage.candidatesTokenCount ?? 0) + thoughts;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedContentTokenCount ?? 0 },
    completion_tokens_details: { reasoning_tokens: thoughts },
  };
}
