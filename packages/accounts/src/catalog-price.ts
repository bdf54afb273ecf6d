import { createRequire } from 'node:module';
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
export const PROVIDER_IDS: Readonly<Record<string, string>> = { xai: 'x-ai', bedrock: 'aws', vertex: 'google' };

/** A catalogue price field: USD per million tokens, or tiered (`base`, and `tiers` from a `start` in prompt tokens). */
type CatalogPriceValue = number | { base: number; tiers?: readonly { start: number; price: number }[] };
/** The token prices of one catalogue entry (genai-prices' `ModelPrice`), the fields Switchyard bills. */
interface CatalogPrices {
  input_mtok?: CatalogPriceValue;
  output_mtok?: CatalogPriceValue;
  cache_read_mtok?: CatalogPriceValue;
  cache_write_mtok?: CatalogPriceValue;
  output_reasoning_mtok?: CatalogPriceValue;
  input_audio_mtok?: CatalogPriceValue;
  cache_audio_read_mtok?: CatalogPriceValue;
  output_audio_mtok?: CatalogPriceValue;
}

type GenaiPrices = typeof import('@pydantic/genai-prices');
let genaiPrices: GenaiPrices | undefined;

/**
 * `@pydantic/genai-prices`, loaded (synchronously, its CommonJS build) on the first catalogue look-up: its catalogue
 * takes about 5 MiB of memory, which a gateway whose models all have a `price` in config never needs.
 */
export function loadGenaiPrices(): GenaiPrices {
  genaiPrices ??= createRequire(import.meta.url)('@pydantic/genai-prices') as GenaiPrices;
  return genaiPrices;
}

/**
 * Looked-up catalogue entries by adapter kind and model id (undefined: unknown or not priced per token). Clients choose
 * the model ids (`<provider>/<any id>`), so the cache is bounded: past {@link CATALOG_CACHE_LIMIT} entries the oldest is
 * evicted (insertion order).
 */
const cache = new Map<string, CatalogPrices | undefined>();

/** Most catalogue look-ups kept in memory (entries, each a model id of at most 256 characters and its price). */
export const CATALOG_CACHE_LIMIT = 4096;

/** How many catalogue look-ups are cached now (at most {@link CATALOG_CACHE_LIMIT}); for tests and diagnostics. */
export function catalogCacheSize(): number {
  return cache.size;
}

/**
 * A catalogue price field for a call of `promptTokens` prompt tokens: a number as it is; a tiered price at the tier of
 * the call, as genai-prices bills it (the highest tier whose `start` the prompt tokens exceed, else `base`, for every
 * token of that kind: e.g. Gemini 2.5 Pro's input, cache and output prices above 200,000 prompt tokens).
 */
function perMillion(value: unknown, promptTokens: number): number | undefined {
  if (typeof value === 'number') return value;
  if (!value || typeof value !== 'object') return undefined;
  const { base, tiers } = value as { base?: unknown; tiers?: unknown };
  if (typeof base !== 'number') return undefined;
  let price = base;
  if (Array.isArray(tiers)) {
    for (const tier of [...tiers].sort((a, b) => a.start - b.start))
      if (promptTokens > tier.start && typeof tier.price === 'number') price = tier.price;
  }
  return price;
}

function lookUp(adapter: string, model: string): CatalogPrices | undefined {
  const key = `${adapter}\u0000${model}`;
  if (cache.has(key)) return cache.get(key);
  let prices: CatalogPrices | undefined;
  const { calcPrice } = loadGenaiPrices();
  try {
    const found = calcPrice({ input_tokens: 0, output_tokens: 0 }, model, {
      providerId: PROVIDER_IDS[adapter] ?? adapter,
    });
    const candidate = found?.model_price as CatalogPrices | undefined;
    prices =
      candidate &&
      perMillion(candidate.input_mtok, 0) !== undefined &&
      perMillion(candidate.output_mtok, 0) !== undefined
        ? candidate
        : undefined;
  } catch {
    prices = undefined; // A catalogue entry the library cannot evaluate: treat as unknown (cost 0), never fail the call.
  }
  if (cache.size >= CATALOG_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, prices);
  return prices;
}

/**
 * The price of `model` served by an adapter of kind `adapter` (`openai`, `anthropic`, `groq`, `bedrock`...) in the
 * catalogue bundled with `@pydantic/genai-prices` (pinned in the lockfile; no network access, ever), as Switchyard's
 * {@link ModelPrice} in USD per million tokens: `input_mtok` -> `input`, `output_mtok` -> `output`, `cache_read_mtok`
 * -> `cached_input`, `cache_write_mtok` -> `cache_write`, `output_reasoning_mtok` -> `reasoning`, `input_audio_mtok` ->
 * `audio_input`, `cache_audio_read_mtok` -> `cached_audio_input`, `output_audio_mtok` -> `audio_output`. Tiered prices (e.g.
 * Gemini 2.5 Pro and Claude Sonnet 4.5 above 200,000 prompt tokens) are taken at the tier of a call of `promptTokens`
 * prompt tokens (default 0: the base tier). Undefined when the catalogue does not know the provider or the model, when
 * the model is not priced per token (images, audio seconds), and for self-hosted servers (Ollama, vLLM, LM Studio).
 * Never throws.
 * @see https://github.com/pydantic/genai-prices
 */
export function catalogPrice(adapter: string, model: string, promptTokens = 0): ModelPrice | undefined {
  if (SELF_HOSTED.has(adapter)) return undefined;
  const prices = lookUp(adapter, model);
  if (!prices) return undefined;
  const price: ModelPrice = {
    input: perMillion(prices.input_mtok, promptTokens)!,
    output: perMillion(prices.output_mtok, promptTokens)!,
  };
  const cachedInput = perMillion(prices.cache_read_mtok, promptTokens);
  const cacheWrite = perMillion(prices.cache_write_mtok, promptTokens);
  const reasoning = perMillion(prices.output_reasoning_mtok, promptTokens);
  if (cachedInput !== undefined) price.cached_input = cachedInput;
  if (cacheWrite !== undefined) price.cache_write = cacheWrite;
  if (reasoning !== undefined) price.reasoning = reasoning;
  const audioInput = perMillion(prices.input_audio_mtok, promptTokens);
  const cachedAudioInput = perMillion(prices.cache_audio_read_mtok, promptTokens);
  const audioOutput = perMillion(prices.output_audio_mtok, promptTokens);
  if (audioInput !== undefined) price.audio_input = audioInput;
  if (cachedAudioInput !== undefined) price.cached_audio_input = cachedAudioInput;
  if (audioOutput !== undefined) price.audio_output = audioOutput;
  return price;
}

/**
 * The price to bill a call of `promptTokens` prompt tokens at (default 0; it picks the tier of a tiered catalogue
 * price): the configured one when the model (or target) has a `price` in config, else the catalogue's for the adapter
 * kind and upstream model ({@link catalogPrice}), else none (cost 0).
 */
export function resolvePrice(
  configured: ModelPrice | undefined,
  adapter: string | undefined,
  upstreamModel: string | undefined,
  promptTokens = 0,
): ResolvedPrice {
  if (configured) return { price: configured, source: 'config' };
  const price = adapter && upstreamModel ? catalogPrice(adapter, upstreamModel, promptTokens) : undefined;
  return price ? { price, source: 'catalog' } : { source: 'none' };
}

/** The price of one deployment of a plan for a call of `promptTokens` prompt tokens ({@link resolvePrice}). */
export function targetPrice(target: RouteTarget, promptTokens = 0): ResolvedPrice {
  return resolvePrice(target.price, target.adapter.adapter, target.upstreamModel, promptTokens);
}
