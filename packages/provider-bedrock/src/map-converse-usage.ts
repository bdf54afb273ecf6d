import type { CompletionUsage } from '@switchyard/core';
import type { ConverseUsage } from './bedrock-api.js';

/**
 * Converse `usage` -> OpenAI usage (tokens): `prompt_tokens` = `inputTokens` + cache reads + cache writes (Bedrock
 * counts cached tokens apart), `prompt_tokens_details.cached_tokens` = `cacheReadInputTokens` and `cache_write_tokens`
 * = `cacheWriteInputTokens` (when either is non-zero), `completion_tokens` =
 * `outputTokens`, `total_tokens` their sum.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html
 */
export function mapConverseUsage(usage: ConverseUsage): CompletionUsage {
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const prompt = (usage.inputTokens ?? 0) + cacheRead + (usage.cacheWriteInputTokens ?? 0);
  const completion = usage.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cacheRead > 0 || (usage.cacheWriteInputTokens ?? 0) > 0
      ? { prompt_tokens_details: { cached_tokens: cacheRead, cache_write_tokens: usage.cacheWriteInputTokens ?? 0 } }
      : {}),
  };
}
