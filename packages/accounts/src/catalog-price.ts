import { calcPrice } from '@pydantic/genai-prices';
import type { ModelPrice, RouteTarget } from '@switchyard/core';

/** Where the price of a ledger row came from: the model's `price` in config, the built-in catalogue, or nowhere (cost 0). */
export type PriceSource = 'config' | 'catalog' | 'none';

/** A price (USD per million tokens) and where it came from; `price` is undefined exactly when `source` is `none`. */
export interface ResolvedPrice {
  price?: ModelPrice;
  source: PriceSource;
}

/**
 * Adapter kinds that run on the user's own hardware: they cost nothing per token, whatever model name they serve, so
 * the catalogue is never asked (a local `llama3.2` must not be priced as some host's `llama3.2`).
 */
const SELF_HOSTED = new Set(['ollama', 'vllm', 'lmstudio']);

/** genai-prices provider ids by Switchyard adapter kind, where they differ (the catalogue also knows most aliases). */
const PROVIDER_IDS: Readonly<Record<string, string>> = { xai: 'x-ai', bedrock: 'aws', vertex: 'google' };

/**
 * Looked-up prices by adapter kind and model id. Clients choose the model ids (`<provider>/<any id>`), so the cache is
 * bounded: past {@link CATALOG_CACHE_LIMIT} entries the oldest is evicted (insertion order).
 */
const cache = new Map<string, ModelPrice | undefined>();

/** Most catalogue look-ups kept in memory (entries, each a model id of at most 256 characters and its price). */
export const CATALOG_CACHE_LIMIT = 4096;

/** How many catalogue look-ups are cached now (at most {@link CATALOG_CACHE_LIMIT}); for tests and diagnostics. */
export function catalogCacheSize(): number {
  return cache.size;
}

/** A catalogue price field: a number, or tiered `{ base, tiers }` of which the base (first) tier is taken. */
function perMillion(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  const base = (value as { base?: unknown } | null)?.base;
  return typeof base === 'number' ? base : undefined;
}

/**
 * The price of `model` served by an adapter of kind `adapter` (`openai`, `anthropic`, `groq`, `bedrock`...) in the
 * catalogue bundled with `@pydantic/genai-prices` (pinned in the lockfile; no network access, ever), as Switchyard's
 * {@link ModelPrice} in USD per million tokens: `input_mtok` -> `input`, `output_mtok` -> `output`, `cache_read_mtok`
 * -> `cached_input`, `cache_write_mtok` -> `cache_write`. Tiered prices (e.g. Gemini above 200k prompt tokens) give
 * their base tier. Undefined when the catalogue does not know the provider or the model, when the model is not priced
 * per token (images, audio seconds), and for self-hosted servers (Ollama, vLLM, LM Studio). Never throws.
 * @see https://github.com/pydantic/genai-prices
 */
export function catalogPrice(adapter: string, model: string): ModelPrice | undefined {
  if (SELF_HOSTED.has(adapter)) return undefined;
  const key = `${adapter}\u0000${model}`;
  if (cache.has(key)) return cache.get(key);
  let price: ModelPrice | undefined;
  try {
    const found = calcPrice({ input_tokens: 0, output_tokens: 0 }, model, { providerId: PROVIDER_IDS[adapter] ?? adapter });
    const prices = found?.model_price;
    const input = perMillion(prices?.input_mtok);
    const output = perMillion(prices?.output_mtok);
    if (prices && input !== undefined && output !== undefined) {
      price = { input, output };
      const cachedInput = perMillion(prices.cache_read_mtok);
      const cacheWrite = perMillion(prices.cache_write_mtok);
      if (cachedInput !== undefined) price.cached_input = cachedInput;
      if (cacheWrite !== undefined) price.cache_write = cacheWrite;
    }
  } catch {
    price = undefined; // A catalogue entry the library cannot evaluate: treat as unknown (cost 0), never fail the call.
  }
  if (cache.size >= CATALOG_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, price);
  return price;
}

/**
 * The price to bill a call at: the configured one when the model (or target) has a `price` in config, else the
 * catalogue's for the adapter kind and upstream model ({@link catalogPrice}), else none (cost 0).
 */
export function resolvePrice(configured: ModelPrice | undefined, adapter: string | undefined, upstreamModel: string | undefined): ResolvedPrice {
  if (configured) return { price: configured, source: 'config' };
  const price = adapter && upstreamModel ? catalogPrice(adapter, upstreamModel) : undefined;
  return price ? { price, source: 'catalog' } : { source: 'none' };
}

/** The price of one deployment of a plan: its configured price, else the catalogue's ({@link resolvePrice}). */
export function targetPrice(target: RouteTarget): ResolvedPrice {
  return resolvePrice(target.price, target.adapter.adapter, target.upstreamModel);
}
