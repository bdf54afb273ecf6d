import type { LRUCache } from 'lru-cache';
import type { RealtimeUpstream } from '../adapter/realtime-upstream.js';
import { invalidRequestError } from '../errors/common-errors.js';
import { upstreamErrorMeaning } from '../errors/upstream-error-meaning.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
import type { GatewayObserver } from '../routing/router-events.js';
import { attemptObserverHooks } from './attempt-observer-hooks.js';
import { orderTargets } from '../routing/order-targets.js';
import { capacityError } from '../routing/plan-queue.js';
import { isRetryableError } from '../routing/retry-delay.js';
import type { TargetHealth } from '../routing/target-health.js';

/**
 * Opens a session's upstream connection for one deployment (the front door's WebSocket handshake) and resolves with
 * it, or rejects with a `GatewayError` (502 refused or unreachable, 504 no handshake in time, 429...). Retryable
 * failures (see `GatewayError.isRetryable`) make the session try the next deployment.
 */
export type RealtimeConnector<C> = (upstream: RealtimeUpstream, target: RouteTarget) => Promise<C>;

/** What routing a session needs of the gateway: the deployments' live health and the round-robin counters. */
export interface RealtimeRouting {
  health: TargetHealth;
  /** Calls per model id, shared with the other calls (round-robin). */
  counters: LRUCache<string, number>;
  /** Observers of upstream attempts (metrics, traces): each handshake is an attempt of operation `realtime`. */
  observers: readonly GatewayObserver[];
}

/** What a session's attempt needs besides its deployment (the fields of `RealtimeCallOptions` the adapter gets). */
export interface RealtimeAttemptContext {
  requestId: string;
  signal: AbortSignal;
  headers?: Record<string, string>;
  clientHeaders?: Readonly<Record<string, string>>;
}

/** The deployment a session connected to: its upstream description, the open connection, and a way to let it go. */
export interface ConnectedRealtimeTarget<C> {
  target: RouteTarget;
  upstream: RealtimeUpstream;
  connection: C;
  /** Ends the session's hold on the deployment (its in-flight count, for `least-busy` and `max_concurrency`). */
  release(): void;
}

/** A session's connection failure, with the last deployment tried (for its ledger row). */
export class RealtimeRoutingError extends Error {
  constructor(
    readonly error: unknown,
    readonly target: RouteTarget | undefined,
  ) {
    super('realtime routing failed', { cause: error });
  }
}

/** The plan's deployments in routing order: each model's (requested, then fallbacks) ordered by its strategy. */
function orderedTargets(plan: RoutePlan, routing: RealtimeRouting): { target: RouteTarget; fallback: boolean }[] {
  return plan.models.flatMap((model, index) => {
    const count = routing.counters.get(model.id) ?? 0;
    routing.counters.set(model.id, count + 1);
    return orderTargets(model.targets, model.strategy, routing.health, count).map((target) => ({
      target,
      fallback: index > 0,
    }));
  });
}

/**
 * Connects a Realtime session the way other calls are routed: the plan's realtime deployments ordered by each
 * model's strategy (weights, round-robin, least-busy, lowest-latency; cooling-down deployments last), the requested
 * model's first, then its fallbacks'. Deployments at their `max_concurrency` are skipped. Each is asked for its
 * {@link RealtimeUpstream} (`adapter.realtime`) and connected with `connect`; a retryable failure (the handshake
 * refused with 5xx/429/401/403, unreachable, timed out) counts against the deployment's breaker and moves on to the
 * next, any other failure ends the search. The handshake time counts as the deployment's time to first byte. The
 * session holds the deployment (in flight) until `release`. Sessions are not moved once connected.
 * Throws {@link RealtimeRoutingError} wrapping the last failure (400 `unsupported_operation` when the plan has no
 * deployment, 429 `deployments_at_capacity` when every one is at its cap, the client's abort reason).
 */
export async function connectRealtimeTarget<C>(
  plan: RoutePlan,
  routing: RealtimeRouting,
  context: RealtimeAttemptContext,
  connect: RealtimeConnector<C>,
): Promise<ConnectedRealtimeTarget<C>> {
  const { health } = routing;
  const hooks = attemptObserverHooks(routing.observers, 'realtime', plan.model, context.requestId);
  const ordered = orderedTargets(plan, routing);
  if (ordered.length === 0)
    throw new RealtimeRoutingError(
      invalidRequestError(
        `No deployment of '${plan.model}' serves realtime sessions for this key.`,
        'model',
        'unsupported_operation',
      ),
      undefined,
    );
  let lastError: unknown;
  let lastTarget: RouteTarget | undefined;
  let attempt = 0;
  for (const [index, { target, fallback }] of ordered.entries()) {
    if (context.signal.aborted) throw new RealtimeRoutingError(context.signal.reason, lastTarget);
    if (target.maxConcurrency !== undefined && health.inFlight(target.key) >= target.maxConcurrency) continue;
    attempt++;
    lastTarget = target;
    const headers = hooks?.start(target, attempt, fallback);
    const startedAt = performance.now();
    health.begin(target.key);
    try {
      const upstream = target.adapter.realtime!(
        { model: target.upstreamModel },
        {
          signal: context.signal,
          requestId: context.requestId,
          provider: target.provider,
          headers: headers ? { ...context.headers, ...headers } : context.headers,
          clientHeaders: context.clientHeaders,
          warn: () => {},
        },
      );
      const connection = await connect(upstream, target);
      const durationMs = performance.now() - startedAt;
      health.success(target.key, durationMs);
      hooks?.end(target, attempt, fallback, 'ok', durationMs);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        health.settle(target.key);
      };
      return { target, upstream, connection, release };
    } catch (caught) {
      const error = upstreamErrorMeaning(target.provider, caught);
      health.settle(target.key);
      const moveOn = isRetryableError(error) && !context.signal.aborted;
      if (moveOn) health.failure(target.key);
      const last = index === ordered.length - 1;
      hooks?.end(
        target,
        attempt,
        fallback,
        moveOn && !last ? 'fallback' : 'error',
        performance.now() - startedAt,
        error,
      );
      lastError = error;
      if (!moveOn) throw new RealtimeRoutingError(error, target);
    }
  }
  throw new RealtimeRoutingError(lastError ?? capacityError(plan.model), lastTarget);
}
