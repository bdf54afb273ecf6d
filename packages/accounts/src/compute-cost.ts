import type { CompletionUsage, ModelPrice } from '@switchyard/core';

/** The usage details that have their own prices: `prompt_tokens_details` and `completion_tokens_details` (tokens). */
export type PricedUsageDetails = Pick<Partial<CompletionUsage>, 'prompt_tokens_details' | 'completion_tokens_details'>;

/**
 * Cost of one call in USD, prices in USD per million tokens: prompt tokens at `input`, except those read from the
 * prompt cache (`prompt_tokens_details.cached_tokens`) at `cached_input` and those written to it
 * (`prompt_tokens_details.cache_write_tokens`) at `cache_write`; completion tokens at `output`, except reasoning tokens
 * (`completion_tokens_details.reasoning_tokens`) at `reasoning`. A price that is not configured falls back to `input`
 * (cache) or `output` (reasoning), so without details or extra prices this is
 * `prompt_tokens * input / 1e6 + completion_tokens * output / 1e6`. Zero when the model has no configured price.
 */
export function computeCostUsd(
  price: ModelPrice | undefined,
  promptTokens: number,
  completionTokens: number,
  details: PricedUsageDetails = {},
): number {
  if (!price) return 0;
  const cached = Math.min(details.prompt_tokens_details?.cached_tokens ?? 0, promptTokens);
  const written = Math.min(details.prompt_tokens_details?.cache_write_tokens ?? 0, promptTokens - cached);
  const reasoning = Math.min(details.completion_tokens_details?.reasoning_tokens ?? 0, completionTokens);
  const input =
    (promptTokens - cached - written) * price.input +
    cached * (price.cached_input ?? price.input) +
    written * (price.cache_write ?? price.input);
  const output = (completionTokens - reasoning) * price.output + reasoning * (price.reasoning ?? price.output);
  return (input + output) / 1_000_000;
}
