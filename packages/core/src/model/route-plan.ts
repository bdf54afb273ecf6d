import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import type { ModelCapability } from '../adapter/model-capability.js';
import type { BalancingStrategy, CallTimeouts, HedgePolicy, ModelPrice } from './model-definition.js';

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
  /** The model id the client sent (an alias, a match of a pattern, a model id...). */
  model: string;
  /** The requested model resolved (`models[0].id` is the id it resolved to: an alias's target), then its fallbacks. */
  models: RoutedModel[];
}
