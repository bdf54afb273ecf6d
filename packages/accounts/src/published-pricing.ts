import type { RouteTarget } from '@switchyard/core';
import { type PriceSource, targetPrice } from './catalog-price.js';

/**
 * A model's prices as `GET /v1/models` publishes them, in USD per million tokens, null where unknown: `input` and
 * `output`; `cached_input` (prompt tokens read from the prompt cache), `cache_write` (prompt tokens written to it) and
 * `reasoning` (reasoning tokens), each the price the ledger bills them at (without a price of their own, `input` or
 * `output`, as `computeCostUsd` does); `batch`, the `input` and `output` prices of `/v1/batches` lines (see
 * {@link batchDiscount}).
 */
export interface PublishedPricing {
  input: number | null;
  output: number | null;
  cached_input: number | null;
  cache_write: number | null;
  reasoning: number | null;
  /** USD per million input and output tokens of batch lines: `input` and `output` times {@link batchDiscount}. */
  batch: { input: number; output: number } | null;
}

/** What `GET /v1/models` adds to a model entry: its {@link PublishedPricing} and where the prices come from. */
export interface PublishedPrice {
  pricing: PublishedPricing;
  /** `config` (the model's `price`), `catalog` (the bundled catalogue) or `none` (unknown: every field null). */
  price_source: PriceSource;
}

const UNKNOWN: PublishedPricing = {
  input: null,
  output: null,
  cached_input: null,
  cache_write: null,
  reasoning: null,
  batch: null,
};

/** The default discount of batches passed to a provider's own batch API (OpenAI, Azure bill them at half price). */
export const NATIVE_BATCH_DISCOUNT = 0.5;

/**
 * The factor on the cost of a `/v1/batches` line served by `target`: its `price.batch_discount`, else
 * {@link NATIVE_BATCH_DISCOUNT} when the deployment's adapter has a batch API of its own (`ProviderAdapter.batches`:
 * the batch runs there) and `native` batches are on, else 1 (the gateway runs the lines as live calls).
 */
export function batchDiscount(target: RouteTarget, native = true): number {
  return target.price?.batch_discount ?? (native && target.adapter.batches ? NATIVE_BATCH_DISCOUNT : 1);
}

/**
 * The prices the ledger bills a call served by `target` at (the configured price, else the catalogue's at its base
 * tier, see {@link targetPrice}), as published; undefined `target` (a model that resolves to nothing): none. `nativeBatches`
 * false (config `batches.native: false`): batch prices without the native default discount.
 */
export function publishedPrice(target: RouteTarget | undefined, nativeBatches = true): PublishedPrice {
  if (!target) return { pricing: { ...UNKNOWN }, price_source: 'none' };
  const { price, source } = targetPrice(target);
  if (!price) return { pricing: { ...UNKNOWN }, price_source: source };
  const discount = price.batch_discount ?? batchDiscount(target, nativeBatches);
  return {
    pricing: {
      input: price.input,
      output: price.output,
      cached_input: price.cached_input ?? price.input,
      cache_write: price.cache_write ?? price.input,
      reasoning: price.reasoning ?? price.output,
      batch: { input: price.input * discount, output: price.output * discount },
    },
    price_source: source,
  };
}
