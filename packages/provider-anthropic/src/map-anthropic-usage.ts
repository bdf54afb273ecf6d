import type { CompletionUsage } from '@switchyard/core';
import type { AnthropicUsage } from './anthropic-response-schemas.js';

/**
 * Anthropic usage -> OpenAI usage, in tokens: `prompt_tokens` = `input_tokens` + `cache_creation_input_tokens` +
 * `cache_read_input_tokens` (Anthropic's `input_tokens` excludes the cache), `prompt_tokens_details.cached_tokens` =
 * the cache reads, `prompt_tokens_details.cache_write_tokens` = the cache writes (`cache_creation_input_tokens`),
 * `completion_tokens` = `output_tokens` (thinking included), `completion_tokens_details.reasoning_tokens` =
 * `output_tokens_details.thinking_tokens` when Anthropic reports it, `total_tokens` = prompt + completion. Missing or
 * null counts are 0. Never throws.
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 */
export function mapAnthropicUsage(usage: AnthropicUsage | null | undefined): CompletionUsage {
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const cacheWrite = usage?.cache_creation_input_tokens ?? 0;
  const prompt = (usage?.input_tokens ?? 0) + cacheWrite + cacheRead;
  const completion = usage?.output_tokens ?? 0;
  const thinking = usage?.output_tokens_details?.thinking_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cacheRead, cache_write_tokens: cacheWrite },
    ...(typeof thinking === 'number' ? { completion_tokens_details: { reasoning_tokens: thinking } } : {}),
  };
}

/**
 * Merges a later usage report into an earlier one (stream: `message_delta` over `message_start`): every count the later
 * report gives (not null) replaces the earlier one, since Anthropic's stream counts are cumulative; detail objects
 * (`output_tokens_details`) replace the earlier ones too. Returns a new object.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
export function mergeAnthropicUsage(earlier: AnthropicUsage, later: AnthropicUsage | null | undefined): AnthropicUsage {
  const merged: AnthropicUsage = { ...earlier };
  for (const [key, value] of Object.entries(later ?? {})) {
    if (typeof value === 'number' || (typeof value === 'object' && value !== null))
      (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}
