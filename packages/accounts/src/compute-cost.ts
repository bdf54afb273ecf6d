import type { ModelPrice } from '@switchyard/core';

/**
 * Cost of one call in USD: `prompt_tokens * input / 1e6 + completion_tokens * output / 1e6`, with prices in USD per
 * million tokens. Zero when the model has no configured price.
 */
export function computeCostUsd(price: ModelPrice | undefined, promptTokens: number, completionTokens: number): number {
  if (!price) return 0;
  return (promptTokens * price.input + completionTokens * price.output) / 1_000_000;
}
