import { computeCostUsd, type PricedUsageDetails, targetPrice } from '@switchyard/accounts';
import type { GatewayCallResult } from '@switchyard/core';

/**
 * The cost of a non-streamed answer (USD) for `x-switchyard-cost-usd`: the one accounts computed when they booked it,
 * else (a gateway without accounts) its usage at the serving deployment's price, configured or from the catalogue
 * (USD per million tokens; cached, cache-write and reasoning tokens at their own prices when reported). `undefined`
 * for a stream, an answer without token usage, or an unpriced model.
 */
export function answerCostUsd(result: GatewayCallResult<unknown>): number | undefined {
  if (result.costUsd !== undefined) return result.costUsd;
  // The answer is the adapter's canonical (schema-checked) response: a chat completion or embeddings with `usage`.
  const usage = (
    result.data as { usage?: PricedUsageDetails & { prompt_tokens?: unknown; completion_tokens?: unknown } } | null
  )?.usage;
  if (typeof usage?.prompt_tokens !== 'number') return undefined;
  const completion = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
  const { price } = targetPrice(result.target, usage.prompt_tokens);
  return price ? computeCostUsd(price, usage.prompt_tokens, completion, usage) : undefined;
}
