import type { CompletionUsage } from '@switchyard/core';
import type { AnthropicUsage } from './anthropic-types.js';

/**
 * Anthropic usage -> OpenAI usage, in tokens: `prompt_tokens` = input + cache creation + cache read tokens (Anthropic's
 * `input_tokens` excludes the cache), `prompt_tokens_details.cached_tokens` = cache reads, `completion_tokens` =
 * output tokens, total = the sum.
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 */
export function mapAnthropicUsage(usage: AnthropicUsage): CompletionUsage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const prompt = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + cacheRead;
  const completion = usage.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cacheRead } };
}
