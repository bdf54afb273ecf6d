import { randomUUID } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { CallAccounting, CallAdmissionRequest, CallOperation } from '../accounting/call-accounting.js';
import { upstreamErrorMeaning } from '../errors/upstream-error-meaning.js';
import type { RequiredCapability } from '../model/model-capabilities.js';
import type { RoutePlan } from '../model/route-plan.js';
import { type CallOverrides, executePlan, type PlanOutcome } from '../routing/execute-plan.js';
import { filterCapableTargetsWithLists } from '../routing/filter-capable-targets.js';
import type { GatewayObserver } from '../routing/router-events.js';
import type { RoutingPolicy } from '../routing/routing-policy.js';
import type { TargetHealth } from '../routing/target-health.js';
import type { UpstreamCallSettings } from '../utils/upstream-body-limits.js';
import { attemptObserverHooks } from './attempt-observer-hooks.js';
import { ADMITTING, type Booking } from './booked-call-options.js';
import { abortedStatus, isMeteredStream, type Metered, statusOf } from './call-metering.js';
import { clampOverrides } from './call-overrides.js';
import type { AttemptRun, RunningCall } from './call-runner.js';
import type { GatewayCallOptions } from './gateway-options.js';
import type { ModelCatalog } from './model-catalog.js';
import type { OperationPlans } from './operation-plans.js';
import { StreamAcceptance } from './stream-acceptance.js';
import { planWithout } from './stream-failover.js';

/** What the call pipeline works with: the gateway's plans, model lists, accounting, routing policy and health. */
export interface CallPipelineDeps {
  plans: OperationPlans;
  catalog: ModelCatalog;
  accounting?: CallAccounting;
  policy: RoutingPolicy;
  health: TargetHealth;
  /** Round-robin call counters per model id. */
  counters: LRUCache<string, number>;
  /** The observers registered now (see `Gateway.observe`). */
  observers: () => readonly GatewayObserver[];
  /** The upstream settings of a call to `provider` (pool, body limits, the response-headers signal). */
  upstream: (provider: string, onResponseHeaders?: () => void) => UpstreamCallSettings;
}

/** A call in progress: as {@link RunningCall}, and `resume` runs the rest of the plan (mid-stream failover). */
export interface PipelineCall<T> extends RunningCall<T> {
  /** Runs the plan without the deployments in `exclude`, within what is left of the call's deadline. */
  resume: (exclude: ReadonlySet<string>) => Promise<PlanOutcome<T>>;
}

/**
 * Runs one call through the pipeline: the plan of `request.model` for `operation` (narrowed to deployments with
 * `needs`), admission by the accounting (limits, budgets; throws its 401/403/429), then `run` on the plan's
 * deployments with retries, fallbacks and hedges (see `executePlan`). Upstream errors are mapped to their meaning
 * (`upstreamErrorMeaning`); a call that fails is settled with its status before the error is rethrown. The attempt is
 * neither released nor the successful call settled: the caller does both.
 */
export async function runCallPipeline<T>(
  deps: CallPipelineDeps,
  operation: CallOperation,
  request: Record<string, unknown>,
  options: GatewayCallOptions,
  run: AttemptRun<T>,
  acceptOnHeaders = true,
  needs: readonly RequiredCapability[] = [],
): Promise<PipelineCall<T>> {
  const model = request.model as string;
  const startedAt = performance.now();
  let plan = deps.plans.planFor(operation, model);
  // Only a request that needs capabilities waits (model lists); others reach the upstream without a microtask's delay.
  if (needs.length > 0) plan = await filterCapableTargetsWithLists(plan, needs, deps.catalog);
  const requestId = options.requestId ?? randomUUID();
  const stream = isMeteredStream(operation, request);
  let metered: Metered | undefined;
  if (deps.accounting) {
    metered = await admit(deps.accounting, options, startedAt, {
      caller: options.caller,
      operation,
      model,
      plan,
      request,
      requestId,
      stream,
      ...(options.labels && { labels: options.labels }),
    });
    plan = metered.ticket.plan;
  }
  let warnings: GatewayWarning[] = [];
  const acceptance = new StreamAcceptance(stream ? options.onAccepted : undefined, metered?.ticket.headers);
  const overrides = clampOverrides(deps.policy, options);
  const execute = (plan: RoutePlan, overrides: CallOverrides) =>
    executePlan<T>({
      plan,
      health: deps.health,
      policy: deps.policy,
      overrides,
      signal: options.signal ?? new AbortController().signal,
      counters: deps.counters,
      hooks: attemptObserverHooks(deps.observers(), operation, model, requestId),
      onAttempt: metered && ((report) => metered.attempts.push(report)),
      run: (target, signal, headers, accepted) => {
        const attemptWarnings: GatewayWarning[] = (warnings = []);
        return run(target.adapter, target, {
          signal,
          requestId,
          provider: target.provider,
          headers: options.upstreamHeaders ? { ...options.upstreamHeaders, ...headers } : headers,
          ...(options.clientHeaders && { clientHeaders: options.clientHeaders }),
          warn: (w) => attemptWarnings.push(w),
          upstream: deps.upstream(
            target.provider,
            acceptance.hook(target, attemptWarnings, acceptOnHeaders ? accepted : undefined),
          ),
        }).catch((error: unknown) => {
          throw upstreamErrorMeaning(target.provider, error);
        });
      },
    });
  try {
    const outcome = await execute(plan, overrides);
    const resume = (exclude: ReadonlySet<string>) =>
      execute(planWithout(plan, exclude), { ...overrides, timeoutMs: Math.max(1, outcome.deadline - Date.now()) });
    return { outcome, warnings, metered, resume };
  } catch (error) {
    if (metered) {
      const status = options.signal?.aborted ? abortedStatus(options.signal) : statusOf(error);
      metered.ticket.settle({ status, attempts: metered.attempts, latencyMs: performance.now() - startedAt, stream });
    }
    throw error;
  }
}

/**
 * Admits one call (marking its booking, see `bookRefusal`) and starts its metering (`startedAt`: when the call started,
 * ms, `performance.now()`); rejects with the accounting's refusal. One `then`, no async frame.
 */
function admit(
  accounting: CallAccounting,
  options: GatewayCallOptions,
  startedAt: number,
  admission: CallAdmissionRequest,
): Promise<Metered> {
  const admitting = (options as Partial<Booking>)[ADMITTING];
  if (admitting) admitting.started = true;
  return accounting.admit(admission).then((ticket) => {
    if (admitting) admitting.ticket = ticket;
    return { ticket, attempts: [], startedAt, stream: admission.stream };
  });
}
