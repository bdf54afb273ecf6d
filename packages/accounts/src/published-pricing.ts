import type { RouteTarget } from '@switchyard/core';
import { type PriceSource, targetPrice } from './catalog-price.js';

/**
 * A model's prices as `GET /v1/models` publishes them, in USD per million tokens, null where unknown: `input` and
 * `output`; `cached_input` (prompt tokens read from the prompt cache), `cache_write` (prompt tokens written to it) and
 * `reasoning` (reasoning tokens), each the price the ledger bills them at (without a price of their own, `input` or
 * `output`, as `computeCostUsd` does); `batch`, the price of batch jobs, is null (the gateway runs no batches yet).
 */
export interface PublishedPricing {
  input: number | null;
  output: number | null;
  cached_input: number | null;
  cache_write: number | null;
  reasoning: number | null;
  batch: number | null;
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

/**
 * The prices the ledger bills a call served by `target` at (the configured price, else the catalogue's at its base
 * tier, see {@link targetPrice}), as published; undefined `target` (a model that resolves to nothing): none.
 */
export function publishedPrice(target: RouteTarget | undefined): PublishedPrice {
  if (!target) return { pricing: { ...UNKNOWN }, price_source: 'none' };
  const { price, source } = targetPrice(target);
  if (!price) return { pricing: { ...UNKNOWN }, price_source: source };
  return {
    pricing: {
      input: price.input,
      output: price.output,
      cached_input: price.cached_input ?? price.input,
      cache_write: price.cache_write ?? price.input,
      reasoning: price.reasoning ?? price.output,
      batch: null,
    },
    price_source: source,
  };
}
