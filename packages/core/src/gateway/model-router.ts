import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import { modelNotFoundError } from '../errors/common-errors.js';
import type { ModelDefinition, ModelPrice } from './model-definition.js';

/** Where one request goes: the provider (config name and adapter) and the upstream's model id. */
export interface RouteTarget {
  /** The model id the client sent. */
  model: string;
  /** Provider name from config. */
  provider: string;
  adapter: ProviderAdapter;
  /** The upstream's model id, sent in place of `model`. */
  upstreamModel: string;
  price?: ModelPrice;
}

/**
 * Resolves a request's `model`: a configured model id first, else `<provider>/<upstream id>` for any configured
 * provider (the part after the first `/` goes upstream unchanged). Anything else throws 404 `model_not_found`.
 */
export class ModelRouter {
  readonly #providers: ReadonlyMap<string, ProviderAdapter>;
  readonly #models: ReadonlyMap<string, ModelDefinition>;

  /** Throws an Error when a model names a provider that is not configured. */
  constructor(providers: Record<string, ProviderAdapter>, models: readonly ModelDefinition[]) {
    this.#providers = new Map(Object.entries(providers));
    const byId = new Map<string, ModelDefinition>();
    for (const model of models) {
      if (!this.#providers.has(model.provider)) {
        throw new Error(`Model '${model.id}' names provider '${model.provider}', which is not configured.`);
      }
      byId.set(model.id, model);
    }
    this.#models = byId;
  }

  /** Configured models, in config order. */
  get models(): readonly ModelDefinition[] {
    return [...this.#models.values()];
  }

  /** Configured providers by name. */
  get providers(): ReadonlyMap<string, ProviderAdapter> {
    return this.#providers;
  }

  /** The target for `model`; throws 404 `model_not_found` when there is none. */
  resolve(model: string): RouteTarget {
    const configured = this.#models.get(model);
    if (configured) {
      return {
        model,
        provider: configured.provider,
        adapter: this.#providers.get(configured.provider)!,
        upstreamModel: configured.upstream ?? configured.id,
        price: configured.price,
      };
    }
    const slash = model.indexOf('/');
    if (slash > 0 && slash < model.length - 1) {
      const provider = model.slice(0, slash);
      const adapter = this.#providers.get(provider);
      if (adapter) return { model, provider, adapter, upstreamModel: model.slice(slash + 1) };
    }
    throw modelNotFoundError(model);
  }
}
