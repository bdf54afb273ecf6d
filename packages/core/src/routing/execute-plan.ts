import { PlanExecution } from './plan-execution.js';
import type { ExecutePlanOptions, PlanOutcome } from './plan-types.js';

export { attemptRecordsOf } from './attempt-records.js';
export { deadlineSliceEnd } from './plan-execution.js';
export type { AttemptHooks, AttemptRecord, CallOverrides, ExecutePlanOptions, PlanOutcome } from './plan-types.js';

/**
 * Runs one request over a {@link RoutePlan}: for each model (the requested one, then its fallbacks) it orders the
 * targets by the model's strategy, and tries each target up to `1 + maxRetries` times. Retryable failures
 * (connection errors, timeouts, 408, 409, 429, 5xx) wait (`retry-after`, else backoff with full jitter) and retry,
 * then move to the next target and model; errors marked `retry: 'other-target'` move on at once; any other error is
 * thrown at once, and so is a timeout after the upstream accepted the call. Everything is bounded by the total
 * deadline; a time-to-first-byte timer bounds each attempt until it is accepted (streams: until the first chunk), and
 * no deployment may use more than its share of the deadline while others remain (see {@link deadlineSliceEnd}).
 * Deployments at their `maxConcurrency` are skipped. With `policy.queueMs` above 0, a call that finds every deployment
 * cooling down or at its cap waits up to `queueMs` for one to come back (a cooldown ending, a slot freed); past that,
 * cooling-down deployments are tried last as without a queue, and a call that could try nothing throws 429
 * `deployments_at_capacity`. When the requested model has `hedge`, an attempt without a first byte after the hedge
 * delay gets one parallel attempt on the next deployment ({@link raceHedged}; at most one per call).
 * Client overrides only lower the model's own limits. Throws the last error (504 `upstream_timeout` when the deadline
 * passed), with `x-switchyard-attempts` in its headers and its attempts in {@link attemptRecordsOf}; the client's
 * abort reason when the client left.
 */
export function executePlan<T>(options: ExecutePlanOptions<T>): Promise<PlanOutcome<T>> {
  return new PlanExecution(options).run();
}
