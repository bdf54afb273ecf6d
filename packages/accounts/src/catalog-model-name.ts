import { CATALOG_CACHE_LIMIT, PROVIDER_IDS, loadGenaiPrices } from './catalog-price.js';

/** Looked-up names by adapter kind and model id (undefined: not in the catalogue); bounded like the price cache. */
const names = new Map<string, string | undefined>();

/**
 * The human-readable name the catalogue bundled with `@pydantic/genai-prices` gives `model` served by an adapter of
 * kind `adapter` (e.g. `anthropic`, `claude-sonnet-4-5-20250929` -> `Claude Sonnet 4.5`; `google`,
 * `gemini-2.5-flash` -> `Gemini 2.5 Flash`), or undefined when the catalogue does not know the provider or the model.
 * Looks up the same entry as `catalogPrice` (no network access, ever); results are cached, at most
 * {@link CATALOG_CACHE_LIMIT} entries. Never throws.
 * @see https://github.com/pydantic/genai-prices
 */
export function catalogModelName(adapter: string, model: string): string | undefined {
  const key = `${adapter}\u0000${model}`;
  if (names.has(key)) return names.get(key);
  let name: string | undefined;
  try {
    const found = loadGenaiPrices().calcPrice({ input_tokens: 0, output_tokens: 0 }, model, {
      providerId: PROVIDER_IDS[adapter] ?? adapter,
    });
    const candidate: unknown = found?.model?.name;
    name = typeof candidate === 'string' && candidate.trim() !== '' ? candidate.trim() : undefined;
  } catch {
    name = undefined; // An entry the library cannot evaluate: no name, never a failed listing.
  }
  if (names.size >= CATALOG_CACHE_LIMIT) names.delete(names.keys().next().value as string);
  names.set(key, name);
  return name;
}
