import { LRUCache } from 'lru-cache';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import { modelNotFoundError } from '../errors/common-errors.js';
import type { ModelCapability } from './model-capabilities.js';
import type { BalancingStrategy, CallTimeouts, HedgePolicy, ModelDefinition, ModelPrice } from './model-definition.js';

/** One deployment a request may go to: the provider (config name and adapter) and the upstream's model id. */
export interface RouteTarget {
  /** The model id this target serves (the client's, or a fallback model's id). */
  model: string;
  /** Provider name from config. */
  provider: string;
  adapter: ProviderAdapter;
  /** The upstream's model id, sent in place of `model`. */
  upstreamModel: string;
  /** USD per million tokens, when configured. */
  price?: ModelPrice;
  /** Balancing weight (default 1). */
  weight: number;
  /** Identity of the deployment for health tracking: `<provider>/<upstreamModel>`. */
  key: string;
  /** What the deployment can do, when configured; undefined: assumed able to do everything. */
  capabilities?: readonly ModelCapability[];
  /** Most requests in flight to this deployment at once; undefined: no cap. */
  maxConcurrency?: number;
}

/** One model of a plan with its deployments and policies. */
export interface RoutedModel {
  id: string;
  targets: RouteTarget[];
  strategy: BalancingStrategy;
  maxRetries?: number;
  timeouts?: CallTimeouts;
  /** Hedged requests, when the model opted in. */
  hedge?: HedgePolicy;
  /** Mid-stream failover of chat streams, when the model opted in. */
  streamFailover?: boolean;
}

/** Everything that may serve one request, in order: the requested model, then its fallbacks (transitively). */
export interface RoutePlan {
  /** The model id the client sent. */
  model: string;
  models: RoutedModel[];
}

function target(
  model: string,
  provider: string,
  adapter: ProviderAdapter,
  upstreamModel: string,
  weight = 1,
  price?: ModelPrice,
  capabilities?: readonly ModelCapability[],
  maxConcurrency?: number,
): RouteTarget {
  return { model, provider, adapter, upstreamModel, weight, price, key: `${provider}/${upstreamModel}`, capabilities, maxConcurrency };
}

/**
 * Resolves a request's `model`: a configured model id first (its targets and fallbacks), else
 * `<provider>/<upstream id>` for any configured provider (the part after the first `/` goes upstream unchanged;
 * such a target carries the configured price of a model served by the same provider and upstream id, if any).
 * Anything else throws 404 `model_not_found`.
 */
export class ModelRouter {
  readonly #providers: ReadonlyMap<string, ProviderAdapter>;
  readonly #models: ReadonlyMap<string, ModelDefinition>;
  /** Plans are immutable, so each model id's plan is built once (the 10,000 most recently used are remembered). */
  readonly #plans = new LRUCache<string, RoutePlan>({ max: 10_000 });
  /** Configured prices by deployment (`<provider>/<upstream id>`), for calls that name a deployment directly. */
  readonly #prices = new Map<string, ModelPrice>();

  /** Throws an Error naming the model when it names an unconfigured provider or fallback, or has no target. */
  constructor(providers: Record<string, ProviderAdapter>, models: readonly ModelDefinition[]) {
    this.#providers = new Map(Object.entries(providers));
    const byId = new Map<string, ModelDefinition>();
    for (const model of models) byId.set(model.id, model);
    for (const model of models) {
      const targets = model.targets ?? (model.provider ? [{ provider: model.provider }] : []);
      if (targets.length === 0) throw new Error(`Model '${model.id}' has neither 'provider' nor 'targets'.`);
      for (const t of targets) {
        if (!this.#providers.has(t.provider)) throw new Error(`Model '${model.id}' names provider '${t.provider}', which is not configured.`);
      }
      for (const fallback of model.fallbacks ?? []) {
        if (!byId.has(fallback)) throw new Error(`Model '${model.id}' names fallback '${fallback}', which is not a configured model id.`);
      }
    }
    this.#models = byId;
    for (const model of models) {
      for (const t of model.targets ?? (model.provider ? [{ provider: model.provider, upstream: model.upstream, price: undefined }] : [])) {
        const price = t.price ?? model.price;
        const key = `${t.provider}/${t.upstream ?? model.upstream ?? model.id}`;
        if (price && !this.#prices.has(key)) this.#prices.set(key, price);
      }
    }
  }

  /** Configured models, in config order. */
  get models(): readonly ModelDefinition[] {
    return [...this.#models.values()];
  }

  /** Configured providers by name. */
  get providers(): ReadonlyMap<string, ProviderAdapter> {
    return this.#providers;
  }

  #routed(id: string): RoutedModel | undefined {
    const definition = this.#models.get(id);
    if (definition) {
      const targets = (definition.targets ?? [{ provider: definition.provider!, upstream: definition.upstream }]).map((t) =>
        target(
          id,
          t.provider,
          this.#providers.get(t.provider)!,
          t.upstream ?? definition.upstream ?? id,
          t.weight,
          t.price ?? definition.price,
          ('capabilities' in t ? t.capabilities : undefined) ?? definition.capabilities,
          ('maxConcurrency' in t ? t.maxConcurrency : undefined) ?? definition.maxConcurrency,
        ),
      );
      return {
        id,
        targets,
        strategy: definition.strategy ?? 'weighted',
        maxRetries: definition.maxRetries,
        timeouts: definition.timeouts,
        hedge: definition.hedge,
        streamFailover: definition.streamFailover,
      };
    }
    const slash = id.indexOf('/');
    if (slash > 0 && slash < id.length - 1) {
      const provider = id.slice(0, slash);
      const adapter = this.#providers.get(provider);
      const upstream = id.slice(slash + 1);
      if (adapter) return { id, targets: [target(id, provider, adapter, upstream, 1, this.#prices.get(`${provider}/${upstream}`))], strategy: 'weighted' };
    }
    return undefined;
  }

  /** The plan for `model`: it and its fallbacks (each once, cycles cut). Throws 404 `model_not_found`. */
  plan(model: string): RoutePlan {
    const cached = this.#plans.get(model);
    if (cached) return cached;
    const plan = this.#buildPlan(model);
    this.#plans.set(model, plan);
    return plan;
  }

  #buildPlan(model: string): RoutePlan {
    const first = this.#routed(model);
    if (!first) throw modelNotFoundError(model);
    const models = [first];
    const seen = new Set([model]);
    for (let i = 0; i < models.length; i++) {
      for (const fallback of this.#models.get(models[i]!.id)?.fallbacks ?? []) {
        if (seen.has(fallback)) continue;
        seen.add(fallback);
        models.push(this.#routed(fallback)!);
      }
    }
    return { model, models };
  }

  /** The first target of `model` (no balancing); throws 404 `model_not_found`. */
  resolve(model: string): RouteTarget {
    return this.plan(model).models[0]!.targets[0]!;
  }
}
