import { LRUCache } from 'lru-cache';
import { type AdapterOperation, adapterServes } from '../adapter/provider-adapter.js';
import { unsupportedOperationError } from '../errors/common-errors.js';
import type { ModelRouter } from './model-router.js';
import type { RoutePlan } from '../model/route-plan.js';

/** An operation a client can call on a model (every adapter operation but listing models). */
export type CallableOperation = Exclude<AdapterOperation, 'listModels'>;

const OPERATION_NAMES: Record<CallableOperation, string> = {
  chatCompletions: 'chat completions',
  completions: 'completions',
  imageEdits: 'image edits',
  imageVariations: 'image variations',
  embeddings: 'embeddings',
  transcriptions: 'audio transcriptions',
  translations: 'audio translations',
  speech: 'audio speech',
  imageGenerations: 'image generations',
  rerank: 'rerank',
  moderations: 'moderations',
  anthropicMessages: 'Anthropic messages',
  openaiResponses: 'OpenAI responses',
  anthropicCountTokens: 'Anthropic count tokens',
  realtime: 'realtime',
};

/** True when the first deployment of `plan`'s requested model serves `operation` for its upstream model (see `adapterServes`). */
export function firstTargetServes(plan: RoutePlan, operation: AdapterOperation): boolean {
  const target = plan.models[0]?.targets[0];
  return target !== undefined && adapterServes(target.adapter, operation, target.upstreamModel);
}

/**
 * Route plans per (operation, model): the router's plan keeping only targets whose adapter implements the
 * operation (for a pass-through: for that upstream model, see `adapterServes`). The 10,000 most recently used plans are cached (model ids come from clients).
 */
export class OperationPlans {
  readonly #plans = new LRUCache<string, RoutePlan>({ max: 10_000 });

  constructor(private readonly router: ModelRouter) {}

  /**
   * The plan for `model` and `operation`. Throws 404 `model_not_found` for an unknown model and 400
   * `unsupported_operation` when the model's own targets cannot do it (fallbacks that cannot are dropped).
   */
  planFor(operation: CallableOperation, model: string): RoutePlan {
    const key = `${operation} ${model}`;
    const cached = this.#plans.get(key);
    if (cached) return cached;
    const plan = this.router.plan(model);
    if (!plan.models[0]!.targets.some((t) => adapterServes(t.adapter, operation, t.upstreamModel))) {
      throw unsupportedOperationError(OPERATION_NAMES[operation], model, plan.models[0]!.targets[0]!.provider);
    }
    const filtered: RoutePlan = {
      ...plan,
      models: plan.models
        .map((m) => ({ ...m, targets: m.targets.filter((t) => adapterServes(t.adapter, operation, t.upstreamModel)) }))
        .filter((m) => m.targets.length > 0),
    };
    this.#plans.set(key, filtered);
    return filtered;
  }
}
