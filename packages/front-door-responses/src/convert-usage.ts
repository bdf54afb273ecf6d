import type { CompletionUsage } from '@switchyard/core';
import type { ResponseUsage } from './response-object.js';

/**
 * Chat usage -> Responses usage (tokens): prompt -> input, completion -> output, cached prompt tokens and reasoning
 * tokens into their details (0 when the upstream did not say). `total_tokens` is input + output.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function convertUsage(usage: Partial<CompletionUsage> | null | undefined): ResponseUsage | null {
  if (!usage) return null;
  const input = usage.prompt_tokens ?? 0;
  const output = usage.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0, cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: input + output,
  };
}
