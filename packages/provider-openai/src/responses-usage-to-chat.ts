import type { CompletionUsage } from '@switchyard/core';

/**
 * Responses usage (ResponseUsage: `input_tokens`, `input_tokens_details.cached_tokens` and `cache_write_tokens`,
 * `output_tokens`, `output_tokens_details.reasoning_tokens`) -> chat usage (tokens) for metering and the ledger.
 * Undefined when there is none.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function responsesUsageToChat(usage: Record<string, unknown> | null | undefined): CompletionUsage | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const inputDetails = (usage.input_tokens_details ?? {}) as Record<string, unknown>;
  const outputDetails = (usage.output_tokens_details ?? {}) as Record<string, unknown>;
  const prompt = count(usage.input_tokens);
  const completion = count(usage.output_tokens);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: {
      cached_tokens: count(inputDetails.cached_tokens),
      cache_write_tokens: count(inputDetails.cache_write_tokens),
    },
    completion_tokens_details: { reasoning_tokens: count(outputDetails.reasoning_tokens) },
  };
}
