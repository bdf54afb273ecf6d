import { LRUCache } from 'lru-cache';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import { modelNotFoundError } from '../errors/common-errors.js';
import type { ModelCapability } from '../adapter/model-capability.js';
import type { ModelDefinition, ModelPrice } from '../model/model-definition.js';
import { type ModelPattern, isModelPattern, modelPattern } from './model-pattern.js';
import type { RoutePlan, RouteTarget, RoutedModel } from '../model/route-plan.js';

/** Most route plans a {@link ModelRouter} remembers (by requested model id, least recently used dropped first). */
export const MAX_CACHED_PLANS = 10_000;

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
  return {
    model,
    provider,
    adapter,
    upstreamModel,
    weight,
    price,
    key: `${provider}/${upstreamModel}`,
    capabilities,
    maxConcurrency,
  };
}

/** A configured pattern model and its matcher. */
interface PatternModel {
  matcher: ModelPattern;
  definition: ModelDefinition;
}

/**
 * Resolves a request's `model`, in this order:
 * 1. a configured model id (`models[].id` without `*`);
 * 2. an alias (`aliases: {<name>: <model>}`): routed as the model it names (any of 1, 3 and 4), whose id the plan
 *    then carries (`plan.models[0].id`), so allow-lists, prices, limits and fallbacks are the target's;
 * 3. a pattern model (`models[].id` holding `*`, see {@link modelPattern}), the longest matching pattern winning
 *    (config order among patterns of the same length); the upstream id is the requested id;
 * 4. `<provider>/<upstream id>` for any configured provider (the part after the first `/` goes upstream unchanged;
 *    such a target carries the configured price of a model served by the same provider and upstream id, if any).
 * Anything else throws 404 `model_not_found`. Plans are cached per requested id in a bounded LRU (ids come from
 * clients).
 */
export class ModelRouter {
  readonly #providers: ReadonlyMap<string, ProviderAdapter>;
  /** Every configured model, patterns included, in config order. */
  readonly #definitions: readonly ModelDefinition[];
  /** Configured models by exact id. */
  readonly #models: ReadonlyMap<string, ModelDefinition>;
  /** Pattern models, longest pattern first (config order among equal lengths). */
  readonly #patterns: readonly PatternModel[];
  readonly #aliases: ReadonlyMap<string, string>;
  /** Plans are immutable, so each model id's plan is built once (the 10,000 most recently used are remembered). */
  readonly #plans = new LRUCache<string, RoutePlan>({ max: MAX_CACHED_PLANS });
  /** Configured prices by deployment (`<provider>/<upstream id>`), for calls that name a deployment directly. */
  readonly #prices = new Map<string, ModelPrice>();

  /**
   * Throws an Error naming the model (or alias) when it names an unconfigured provider, a fallback that resolves to
   * nothing, has no target, gives a pattern an `upstream` id, or when an alias shadows a model id, holds `*`, names
   * another alias or names nothing that resolves.
   */
  constructor(
    providers: Record<string, ProviderAdapter>,
    models: readonly ModelDefinition[],
    aliases: Readonly<Record<string, string>> = {},
  ) {
    this.#providers = new Map(Object.entries(providers));
    const byId = new Map<string, ModelDefinition>();
    const patterns: PatternModel[] = [];
    for (const model of models) {
      if (isModelPattern(model.id)) patterns.push({ matcher: modelPattern(model.id), definition: model });
      else byId.set(model.id, model);
    }
    for (const model of models) {
      const targets = model.targets ?? (model.provider ? [{ provider: model.provider, upstream: model.upstream }] : []);
      if (targets.length === 0) throw new Error(`Model '${model.id}' has neither 'provider' nor 'targets'.`);
      for (const t of targets) {
        if (!this.#providers.has(t.provider))
          throw new Error(`Model '${model.id}' names provider '${t.provider}', which is not configured.`);
        if (isModelPattern(model.id) && (t.upstream !== undefined || model.upstream !== undefined)) {
          throw new Error(
            `Model pattern '${model.id}' sets 'upstream': a pattern's upstream id is the id the client asked for.`,
          );
        }
      }
    }
    this.#definitions = [...models];
    this.#models = byId;
    // Stable sort: equal lengths keep config order.
    this.#patterns = patterns.sort((a, b) => b.matcher.pattern.length - a.matcher.pattern.length);
    this.#aliases = new Map(Object.entries(aliases));
    for (const [name, target] of this.#aliases) {
      if (byId.has(name)) throw new Error(`Alias '${name}' is also a model id; remove one of them.`);
      if (isModelPattern(name) || isModelPattern(target))
        throw new Error(`Alias '${name}': aliases name one model id each; '*' is not allowed.`);
      if (this.#aliases.has(target))
        throw new Error(`Alias '${name}' names alias '${target}'; aliases must name a model, not another alias.`);
      if (!this.#routedId(target))
        throw new Error(
          `Alias '${name}' names '${target}', which is neither a model id, a match of a model pattern nor '<provider>/<model>'.`,
        );
    }
    for (const model of models) {
      for (const fallback of model.fallbacks ?? []) {
        if (!this.#routed(fallback))
          throw new Error(`Model '${model.id}' names fallback '${fallback}', which is not a configured model id.`);
      }
      if (isModelPattern(model.id)) continue;
      for (const t of model.targets ??
        (model.provider ? [{ provider: model.provider, upstream: model.upstream, price: undefined }] : [])) {
        const price = t.price ?? model.price;
        const key = `${t.provider}/${t.upstream ?? model.upstream ?? model.id}`;
        if (price && !this.#prices.has(key)) this.#prices.set(key, price);
      }
    }
  }

  /** Configured models (pattern models included), in config order. */
  get models(): readonly ModelDefinition[] {
    return this.#definitions;
  }

  /** Configured aliases: alias name -> the model id it names. */
  get aliases(): ReadonlyMap<string, string> {
    return this.#aliases;
  }

  /** Configured providers by name. */
  get providers(): ReadonlyMap<string, ProviderAdapter> {
    return this.#providers;
  }

  /** The configured model serving `id`: its exact entry, else the longest pattern matching it. */
  definitionOf(id: string): ModelDefinition | undefined {
    return this.#models.get(id) ?? this.#patterns.find((p) => p.matcher.matches(id))?.definition;
  }

  /**
   * The configured model (exact or pattern) a requested id resolves to, aliases followed; undefined for
   * `<provider>/<id>` and unknown ids. Uses (and fills) the plan cache.
   */
  resolvedDefinition(model: string): ModelDefinition | undefined {
    let plan: RoutePlan;
    try {
      plan = this.plan(model);
    } catch {
      return undefined;
    }
    return this.definitionOf(plan.models[0]!.id);
  }

  /** `id` routed: an alias as the model it names, anything else as itself. */
  #routed(id: string): RoutedModel | undefined {
    const alias = this.#aliases.get(id);
    return this.#routedId(alias ?? id);
  }

  #routedId(id: string): RoutedModel | undefined {
    const definition = this.definitionOf(id);
    if (definition) {
      const pattern = definition.id !== id;
      const targets = (definition.targets ?? [{ provider: definition.provider!, upstream: definition.upstream }]).map(
        (t) =>
          target(
            id,
            t.provider,
            this.#providers.get(t.provider)!,
            pattern ? id : (t.upstream ?? definition.upstream ?? id),
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
      if (adapter)
        return {
          id,
          targets: [target(id, provider, adapter, upstream, 1, this.#prices.get(`${provider}/${upstream}`))],
          strategy: 'weighted',
        };
    }
    return undefined;
  }

  /**
   * The plan for `model`: what it resolves to and that model's fallbacks (each once, cycles cut); `plan.model` is
   * `model`, `plan.models[0].id` the resolved model id (an alias's target). Throws 404 `model_not_found`.
   */
  plan(model: string): RoutePlan {
    const cached = this.#plans.get(model);
    if (cached) return cached;
    const plan = this.#buildPlan(model);
    this.#plans.set(model, plan);
    return plan;
  }

  /** The plan of `model` as {@link plan} gives it, without remembering it (for listings); undefined when unknown. */
  peek(model: string): RoutePlan | undefined {
    const cached = this.#plans.get(model);
    if (cached) return cached;
    try {
      return this.#buildPlan(model);
    } catch {
      return undefined;
    }
  }

  #buildPlan(model: string): RoutePlan {
    const first = this.#routed(model);
    if (!first) throw modelNotFoundError(model);
    const models = [first];
    const seen = new Set([first.id]);
    for (let i = 0; i < models.length; i++) {
      for (const fallback of this.definitionOf(models[i]!.id)?.fallbacks ?? []) {
        const routed = this.#routed(fallback);
        if (!routed || seen.has(routed.id)) continue;
        seen.add(routed.id);
        models.push(routed);
      }
    }
    return { model, models };
  }

  /** The first target of `model` (no balancing); throws 404 `model_not_found`. */
  resolve(model: string): RouteTarget {
    return this.plan(model).models[0]!.targets[0]!;
  }
}
