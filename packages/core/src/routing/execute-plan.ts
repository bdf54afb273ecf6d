import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '../errors/gateway-error.js';
import type { AttemptReport } from '../gateway/call-accounting.js';
import type { RoutePlan, RouteTarget } from '../gateway/model-router.js';
import { closePeekedValue } from './guard-stream.js';
import { type HedgeRaceResult, hedgeDelayMs, pickHedgeTarget, raceHedged } from './hedge-attempts.js';
import { orderTargets } from './order-targets.js';
import { type AttemptContext, PlanAttempt, safely } from './plan-attempt.js';
import { isRetryableError, retryDelayMs } from './retry-delay.js';
import type { AttemptOutcome } from './router-events.js';
import type { RoutingPolicy } from './routing-policy.js';
import type { TargetHealth } from './target-health.js';

/**
 * Per-request limits from headers. They can only lower what the model (or the gateway's routing policy) allows: the
 * smaller of the two applies.
 */
export interface CallOverrides {
  maxRetries?: number;
  /** Total deadline, ms. */
  timeoutMs?: number;
}

/** What happened to one upstream attempt, for accounting (every attempt may cost money) and diagnostics. */
export interface AttemptRecord {
  /** The model id this attempt served (the requested one or a fallback). */
  model: string;
  provider: string;
  upstreamModel: string;
  /** True once the upstream accepted the call (answered with headers and a status below 400): it may have generated. */
  accepted: boolean;
  /** `success`, or the failure's HTTP status and code as the client would see them. */
  outcome: 'success' | 'error';
  status?: number;
  code?: string | null;
  /** From the start of the attempt to its answer or failure, ms. */
  durationMs: number;
}

const attemptRecords = new WeakMap<object, AttemptRecord[]>();

/** The attempts behind a failed call's error (as thrown by {@link executePlan}), or undefined for other errors. */
export function attemptRecordsOf(error: unknown): AttemptRecord[] | undefined {
  return typeof error === 'object' && error !== null ? attemptRecords.get(error) : undefined;
}

/** The winning attempt: its value, target, attempt count, and what the caller must keep running or release. */
export interface PlanOutcome<T> {
  value: T;
  target: RouteTarget;
  /** Upstream attempts made, this one included. */
  attempts: number;
  /** Every attempt made, in order, the winning one last. */
  records: AttemptRecord[];
  /** The winning attempt's signal (client abort, total deadline or idle timeout). Streams keep using it. */
  signal: AbortSignal;
  /** Aborts the winning attempt with `reason` (used by the stream idle timer). */
  abort(reason: unknown): void;
  /** Idle gap allowed between stream chunks, ms. */
  idleMs: number;
  /** The call's total deadline, unix ms (a continuation of the answer must end by then too). */
  deadline: number;
  /**
   * Reports how the winning attempt's answer ended to the attempt observers (`AttemptHooks.end`), once: for a stream,
   * when it ends; `ok` only when it ended whole, else its break and what followed (`fallback` when another deployment
   * continued it, `error` when nothing else was tried). Later calls are ignored.
   */
  ended(outcome: AttemptOutcome, error?: unknown): void;
  /**
   * Releases the deadline timer and the target's in-flight slot; call once the answer is fully sent. Reports the
   * attempt `ok` unless {@link ended} reported it already or `broken` is true (its answer broke: the caller reports
   * it with {@link ended} once it knows what follows).
   */
  release(broken?: boolean): void;
}

/** Inputs of {@link executePlan}. */
export interface ExecutePlanOptions<T> {
  plan: RoutePlan;
  health: TargetHealth;
  policy: RoutingPolicy;
  overrides?: CallOverrides;
  /** The client's signal. */
  signal: AbortSignal;
  /** Per-model call counters for round-robin (a Map or any store with get/set, e.g. an LRU cache). */
  counters: { get(model: string): number | undefined; set(model: string, count: number): unknown };
  /**
   * One attempt against one target; must honour `signal`. For streams it resolves once the first chunk is in.
   * `headers` are the extra upstream headers {@link AttemptHooks.start} returned for this attempt. It calls
   * `accepted()` when the upstream has accepted the call (response headers in): from then on the first-byte timer stops
   * (the body is bounded by the total deadline), and a timeout is no longer retried, since the upstream may still be
   * generating (and billing) the answer.
   */
  run(target: RouteTarget, signal: AbortSignal, headers: Record<string, string> | undefined, accepted: () => void): Promise<T>;
  /** Called after every attempt (success or failure), for metering each attempt's cost. */
  onAttempt?: (report: AttemptReport) => void;
  /** Releases a value that arrived after its attempt lost a hedge race; default {@link closePeekedValue}. */
  dispose?: (value: T) => void;
  random?: () => number;
  /** Observes attempts (metrics, traces); called synchronously. */
  hooks?: AttemptHooks;
}

/** Attempt observers of {@link executePlan}. `attempt` is 1-based; `fallback` is true past the requested model. */
export interface AttemptHooks {
  /** An attempt starts; may return extra upstream headers (trace context). */
  start(target: RouteTarget, attempt: number, fallback: boolean): Record<string, string> | undefined;
  /**
   * An attempt ended: `ok` (for a stream: once it ended whole, see {@link PlanOutcome.ended}), or a failure whose outcome is known once the router decided what comes next (`retry` on
   * the same target, `fallback` to another one, `error` when nothing else is tried). `durationMs` is the attempt's
   * time to its answer or failure, ms.
   */
  end(target: RouteTarget, attempt: number, fallback: boolean, outcome: AttemptOutcome, durationMs: number, error?: unknown): void;
}

const timeoutError = (what: string, ms: number) =>
  new GatewayError({ status: 504, type: 'server_error', code: 'upstream_timeout', message: `The upstream ${what} (${ms} ms).` });

const capacityError = (model: string) =>
  new GatewayError({
    status: 429,
    type: 'rate_limit_error',
    code: 'deployments_at_capacity',
    message: `Every deployment of '${model}' is at its concurrency limit (max_concurrency); try again shortly.`,
  });

function withAttempts(error: unknown, attempts: number, records?: AttemptRecord[]): unknown {
  if (GatewayError.isInstance(error)) (error.headers as Record<string, string>)['x-switchyard-attempts'] = String(attempts);
  if (records && typeof error === 'object' && error !== null) attemptRecords.set(error, records);
  return error;
}


/**
 * Deadline budget of one deployment, as a Unix time (ms): when `targetsLeft` deployments (this one included) remain
 * to be tried, this one may use `1 / targetsLeft` of the time left before `deadline`, so that a stalled deployment
 * leaves room for the next; the last one may use all of it. Every attempt on the deployment (its retries included)
 * must get its first byte before this time: its time-to-first-byte timer is `min(first_byte_ms, sliceEnd - now)`.
 */
export function deadlineSliceEnd(deadline: number, now: number, targetsLeft: number): number {
  if (targetsLeft <= 1) return deadline;
  return now + Math.floor((deadline - now) / targetsLeft);
}

/**
 * Runs one request over a {@link RoutePlan}: for each model (the requested one, then its fallbacks) it orders the
 * targets by the model's strategy, and tries each target up to `1 + maxRetries` times. Retryable failures
 * (connection errors, timeouts, 408, 409, 429, 5xx) wait (`retry-after`, else backoff with full jitter) and retry,
 * then move to the next target and model; errors marked `retry: 'other-target'` move on at once; any other error is
 * thrown at once, and so is a timeout after the upstream accepted the call. Everything is bounded by the total
 * deadline; a time-to-first-byte timer bounds each attempt until it is accepted (streams: until the first chunk), and
 * no deployment may use more than its share of the deadline while others remain (see {@link deadlineSliceEnd}).
 * Deployments at their `maxConcurrency` are skipped; when nothing else could be tried, the call waits up to
 * `policy.queueMs` for a slot, then throws 429 `deployments_at_capacity`.
 * Client overrides only lower the model's own limits. Throws the last error (504 `upstream_timeout` when the deadline
 * passed), with `x-switchyard-attempts` in its headers and its attempts in {@link attemptRecordsOf}; the client's
 * abort reason when the client left.
 */
/** True when every target is cooling down or at its `maxConcurrency` (nothing can take the call now). */
function noneAvailable(ordered: readonly (readonly RouteTarget[])[], health: TargetHealth): boolean {
  return ordered.every((targets) =>
    targets.every((t) => health.isCoolingDown(t.key) || (t.maxConcurrency !== undefined && health.inFlight(t.key) >= t.maxConcurrency)),
  );
}

/** The earliest time (unix ms) a cooling-down target of `ordered` comes back; Infinity when none is cooling down. */
function nextCooldownEnd(ordered: readonly (readonly RouteTarget[])[], health: TargetHealth): number {
  let next = Number.POSITIVE_INFINITY;
  for (const targets of ordered) for (const t of targets) next = Math.min(next, health.cooldownEndsAt(t.key) || Number.POSITIVE_INFINITY);
  return next;
}

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
export async function executePlan<T>(options: ExecutePlanOptions<T>): Promise<PlanOutcome<T>> {
  const { plan, health, policy, overrides = {} } = options;
  const first = plan.models[0]!;
  const ownTotalMs = first.timeouts?.totalMs ?? policy.timeouts.totalMs;
  const totalMs = overrides.timeoutMs === undefined ? ownTotalMs : Math.min(overrides.timeoutMs, ownTotalMs);
  const deadline = Date.now() + totalMs;
  // Signals are linked by hand (AbortSignal.any costs more per request): the call's controller aborts on the client's
  // abort or the total deadline, each attempt's controller on the call's abort or its first-byte timer.
  const total = new AbortController();
  const onClientAbort = () => total.abort(options.signal.reason);
  if (options.signal.aborted) total.abort(options.signal.reason);
  else options.signal.addEventListener('abort', onClientAbort, { once: true });
  const totalTimer = setTimeout(() => total.abort(timeoutError('did not complete in time', totalMs)), totalMs);
  const callSignal = total.signal;
  const finish = () => {
    clearTimeout(totalTimer);
    options.signal.removeEventListener('abort', onClientAbort);
  };
  let attempts = 0;
  let lastError: unknown;
  const { hooks } = options;
  const records: AttemptRecord[] = [];
  const context: AttemptContext<T> = {
    health,
    hooks,
    run: options.run,
    onAttempt: options.onAttempt,
    dispose: options.dispose ?? closePeekedValue,
    callSignal,
    clientSignal: options.signal,
    records,
  };
  // A failed attempt's outcome (retry, fallback or error) is known only when the router picks what comes next.
  let failed: { target: RouteTarget; attempt: number; fallback: boolean; durationMs: number; error: unknown } | undefined;
  const settleFailed = (next: RouteTarget | undefined) => {
    if (!failed || !hooks) return;
    const outcome: AttemptOutcome = next === undefined ? 'error' : next.key === failed.target.key ? 'retry' : 'fallback';
    safely(() => hooks.end(failed!.target, failed!.attempt, failed!.fallback, outcome, failed!.durationMs, failed!.error));
    failed = undefined;
  };
  const firstByteOf = (model: RoutePlan['models'][number]) => model.timeouts?.firstByteMs ?? first.timeouts?.firstByteMs ?? policy.timeouts.firstByteMs;
  // A failure that does not decide what comes next (a hedge, or a primary whose hedge answered): booked at once.
  const sideFailure = (attempt: PlanAttempt<T>, thrown: unknown) => {
    const error = attempt.fail(thrown);
    if (isRetryableError(error) && !options.signal.aborted) health.failure(attempt.target.key);
    if (hooks) safely(() => hooks.end(attempt.target, attempt.number, attempt.fallback, 'fallback', attempt.record.durationMs, error));
    lastError = error;
  };

  // Deadline budgets: the deployments still to try (this one included), so that each gets a fair slice of the time left.
  const ordered = plan.models.map((model) => {
    const count = options.counters.get(model.id) ?? 0;
    options.counters.set(model.id, count + 1);
    return orderTargets(model.targets, model.strategy, health, count, options.random);
  });
  const queueUntil = Math.min(deadline, Date.now() + (policy.queueMs ?? 0));
  let hedged = false;
  const launchHedge = (modelIndex: number, current: RouteTarget) => (): PlanAttempt<T> | undefined => {
    const picked = pickHedgeTarget(ordered, modelIndex, current, health);
    const budgetMs = picked && Math.min(firstByteOf(plan.models[picked.modelIndex]!), deadline - Date.now());
    if (!picked || !budgetMs || budgetMs <= 0 || callSignal.aborted) return undefined;
    hedged = true;
    attempts++;
    const fallback = picked.modelIndex > 0;
    const headers = hooks ? safely(() => hooks.start(picked.target, attempts, fallback)) : undefined;
    return new PlanAttempt(context, picked.target, attempts, fallback, budgetMs, headers);
  };

  try {
   for (;;) {
    // Every deployment cooling down or at its cap: wait (the queue) for a cooldown to end or a slot to free.
    while (Date.now() < queueUntil && noneAvailable(ordered, health)) {
      await health.whenSettled(Math.min(queueUntil, nextCooldownEnd(ordered, health)) - Date.now(), callSignal);
      if (callSignal.aborted) throw callSignal.reason;
    }
    // Deployments at their `maxConcurrency` are skipped; when that left nothing to try, wait for a slot (the queue).
    let atCapacity = false;
    let attempted = false;
    let targetsLeft = ordered.reduce((sum, targets) => sum + targets.length, 0);
    for (const [modelIndex, model] of plan.models.entries()) {
      const fallback = modelIndex > 0;
      const ownMaxRetries = model.maxRetries ?? policy.maxRetries;
      const maxRetries = overrides.maxRetries === undefined ? ownMaxRetries : Math.min(overrides.maxRetries, ownMaxRetries);
      const firstByteMs = firstByteOf(model);
      const idleMs = model.timeouts?.idleMs ?? first.timeouts?.idleMs ?? policy.timeouts.idleMs;
      for (const target of ordered[modelIndex]!) {
        const sliceEnd = deadlineSliceEnd(deadline, Date.now(), targetsLeft--);
        for (let retry = 0; retry <= maxRetries; retry++) {
          if (callSignal.aborted) throw callSignal.reason;
          if (target.maxConcurrency !== undefined && health.inFlight(target.key) >= target.maxConcurrency) {
            atCapacity = true;
            break;
          }
          attempted = true;
          const budgetMs = Math.min(firstByteMs, sliceEnd - Date.now());
          if (budgetMs <= 0) break;
          attempts++;
          settleFailed(target);
          const headers = hooks ? safely(() => hooks.start(target, attempts, fallback)) : undefined;
          const attempt = new PlanAttempt(context, target, attempts, fallback, budgetMs, headers);
          const hedgeDelay = first.hedge && !hedged ? hedgeDelayMs(first.hedge, health, target.key) : undefined;
          const race: HedgeRaceResult<T> =
            hedgeDelay !== undefined && hedgeDelay < budgetMs
              ? await raceHedged(attempt, hedgeDelay, launchHedge(modelIndex, target), sideFailure)
              : { attempt, result: await attempt.result };
          if (race.primaryFailure !== undefined) sideFailure(attempt, race.primaryFailure);
          const { result } = race;
          if (result.ok) {
            const winner = race.attempt;
            winner.succeed();
            let reported = false;
            const ended = (outcome: AttemptOutcome, error?: unknown) => {
              if (reported) return;
              reported = true;
              winner.ended(outcome, error);
            };
            return {
              value: result.value,
              target: winner.target,
              attempts,
              records,
              signal: winner.signal,
              idleMs,
              deadline,
              abort: (reason) => winner.controller.abort(reason),
              ended,
              release: (broken = false) => {
                if (!broken) ended('ok');
                finish();
                winner.release();
              },
            };
          }
          const error = attempt.fail(result.thrown);
          const { record } = attempt;
          failed = { target, attempt: attempt.number, fallback, durationMs: record.durationMs, error };
          if (options.signal.aborted) throw options.signal.reason ?? error;
          if (!isRetryableError(error)) throw withAttempts(error, attempts, records);
          // Accepted, then timed out: the upstream may still be generating (and billing) this answer.
          if (record.accepted && GatewayError.isInstance(error) && error.status === 504) throw withAttempts(error, attempts, records);
          health.failure(target.key);
          lastError = error;
          if (total.signal.aborted) throw withAttempts(total.signal.reason, attempts, records);
          if (retry === maxRetries || (GatewayError.isInstance(error) && error.retry === 'other-target')) break;
          const wait = retryDelayMs(retry, error, policy.backoff, options.random);
          if (Date.now() + wait >= Math.min(deadline, sliceEnd)) break;
          await sleep(wait, undefined, { signal: callSignal }).catch(() => {});
        }
      }
    }
    if (attempted || !atCapacity) break;
    if (Date.now() >= queueUntil) throw capacityError(plan.model);
    await health.whenSettled(queueUntil - Date.now(), callSignal);
   }
    if (total.signal.aborted) throw total.signal.reason;
    throw lastError ?? new GatewayError({ status: 503, type: 'server_error', code: 'no_available_target', message: `No deployment of '${plan.model}' is available.` });
  } catch (error) {
    finish();
    settleFailed(undefined);
    throw withAttempts(options.signal.aborted ? (options.signal.reason ?? error) : error, attempts, records);
  }
}
