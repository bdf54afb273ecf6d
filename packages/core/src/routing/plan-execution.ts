import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '../errors/gateway-error.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
import { withAttempts } from './attempt-records.js';
import { closePeekedValue } from './guard-stream.js';
import { type HedgeRaceResult, hedgeDelayMs, pickHedgeTarget, raceHedged } from './hedge-attempts.js';
import { orderTargets } from './order-targets.js';
import { type AttemptContext, PlanAttempt, safely } from './plan-attempt.js';
import { type OrderedTargets, capacityError, noneAvailable, waitWhileNoneAvailable } from './plan-queue.js';
import type { AttemptRecord, ExecutePlanOptions, PlanOutcome } from './plan-types.js';
import { isRetryableError, retryDelayMs } from './retry-delay.js';
import type { AttemptOutcome } from './router-events.js';

type PlanModel = RoutePlan['models'][number];

/** What one pass over a target's attempts came to: the winning outcome, or whether it tried and whether it was full. */
type TargetPass<T> = { outcome: PlanOutcome<T> } | { outcome?: undefined; attempted: boolean; atCapacity: boolean };

/** A failed attempt whose outcome (retry, fallback or error) is known only when the router picks what comes next. */
interface FailedAttempt {
  target: RouteTarget;
  attempt: number;
  fallback: boolean;
  durationMs: number;
  error: unknown;
}

const timeoutError = (what: string, ms: number) =>
  new GatewayError({
    status: 504,
    type: 'server_error',
    code: 'upstream_timeout',
    message: `The upstream ${what} (${ms} ms).`,
  });

const noTargetError = (model: string) =>
  new GatewayError({
    status: 503,
    type: 'server_error',
    code: 'no_available_target',
    message: `No deployment of '${model}' is available.`,
  });

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
 * One call run over its {@link RoutePlan} (see `executePlan` for the rules). Each concern has its method: the total
 * deadline and the client's abort (the constructor and {@link #finish}), the queue ({@link run}), the order of targets
 * and their deadline slices ({@link #tryEveryTarget}), retries on one target ({@link #tryTarget},
 * {@link #afterFailure}), hedging ({@link #attempt}, {@link #launchHedge}) and the winner's outcome
 * ({@link #outcomeOf}). Signals are linked by hand (`AbortSignal.any` costs more per request): the call's controller
 * aborts on the client's abort or the total deadline, each attempt's controller on the call's abort or its
 * first-byte timer.
 */
export class PlanExecution<T> {
  readonly #options: ExecutePlanOptions<T>;
  readonly #first: PlanModel;
  readonly #deadline: number;
  readonly #total = new AbortController();
  readonly #totalTimer: NodeJS.Timeout;
  /** The call's total time (ms): the route's, or the client's override within it. */
  readonly #totalMs: number;
  readonly #onClientAbort = () => this.#total.abort(this.#options.signal.reason);
  readonly #records: AttemptRecord[] = [];
  readonly #context: AttemptContext<T>;
  readonly #ordered: OrderedTargets;
  readonly #queueUntil: number;
  #attempts = 0;
  #lastError: unknown;
  #hedged = false;
  #failed: FailedAttempt | undefined;

  constructor(options: ExecutePlanOptions<T>) {
    this.#options = options;
    const { plan, policy, overrides = {}, signal } = options;
    this.#first = plan.models[0]!;
    const ownTotalMs = this.#first.timeouts?.totalMs ?? policy.timeouts.totalMs;
    const totalMs = overrides.timeoutMs === undefined ? ownTotalMs : Math.min(overrides.timeoutMs, ownTotalMs);
    this.#totalMs = totalMs;
    this.#deadline = Date.now() + totalMs;
    if (signal.aborted) this.#total.abort(signal.reason);
    else signal.addEventListener('abort', this.#onClientAbort, { once: true });
    this.#totalTimer = setTimeout(() => this.#timeOut(), totalMs);
    this.#context = {
      health: options.health,
      hooks: options.hooks,
      run: options.run,
      onAttempt: options.onAttempt,
      dispose: options.dispose ?? closePeekedValue,
      callSignal: this.#total.signal,
      clientSignal: signal,
      records: this.#records,
    };
    this.#ordered = plan.models.map((model) => {
      const count = options.counters.get(model.id) ?? 0;
      options.counters.set(model.id, count + 1);
      return orderTargets(model.targets, model.strategy, options.health, count, options.random);
    });
    this.#queueUntil = Math.min(this.#deadline, Date.now() + (policy.queueMs ?? 0));
  }

  /**
   * Tries the plan's targets until one answers; when every deployment was at its cap (nothing tried), waits in the
   * queue for a slot and tries again. Throws the last error, marked with its attempts.
   */
  async run(): Promise<PlanOutcome<T>> {
    const { plan, health, signal } = this.#options;
    const callSignal = this.#total.signal;
    try {
      for (;;) {
        // Only awaited when there is something to wait for: the first attempt starts in the caller's tick.
        if (Date.now() < this.#queueUntil && noneAvailable(this.#ordered, health)) {
          await waitWhileNoneAvailable(this.#ordered, health, this.#queueUntil, callSignal);
        }
        const pass = await this.#tryEveryTarget();
        if (pass.outcome) return pass.outcome;
        if (pass.attempted || !pass.atCapacity) break;
        if (Date.now() >= this.#queueUntil) throw capacityError(plan.model);
        await health.whenSettled(this.#queueUntil - Date.now(), callSignal);
      }
      // The deadline passed before any target could be tried (its timer had not run yet): a timeout, not a 503.
      if (this.#lastError === undefined && !callSignal.aborted && Date.now() >= this.#deadline) this.#timeOut();
      if (callSignal.aborted) throw callSignal.reason;
      throw this.#lastError ?? noTargetError(plan.model);
    } catch (error) {
      this.#finish();
      this.#settleFailed(undefined);
      throw withAttempts(signal.aborted ? (signal.reason ?? error) : error, this.#attempts, this.#records);
    }
  }

  /** One pass over every model's targets in order, each with its slice of the time left. */
  async #tryEveryTarget(): Promise<TargetPass<T>> {
    let attempted = false;
    let atCapacity = false;
    let targetsLeft = this.#ordered.reduce((sum, targets) => sum + targets.length, 0);
    for (const [modelIndex, model] of this.#options.plan.models.entries()) {
      for (const target of this.#ordered[modelIndex]!) {
        const sliceEnd = deadlineSliceEnd(this.#deadline, Date.now(), targetsLeft--);
        const pass = await this.#tryTarget(modelIndex, model, target, sliceEnd);
        if (pass.outcome) return pass;
        attempted ||= pass.attempted;
        atCapacity ||= pass.atCapacity;
      }
    }
    return { attempted, atCapacity };
  }

  /** Up to `1 + maxRetries` attempts on one target, each bounded by its first-byte time and the slice's end (unix ms). */
  async #tryTarget(
    modelIndex: number,
    model: PlanModel,
    target: RouteTarget,
    sliceEnd: number,
  ): Promise<TargetPass<T>> {
    const { health, overrides = {}, policy } = this.#options;
    const ownMaxRetries = model.maxRetries ?? policy.maxRetries;
    const maxRetries =
      overrides.maxRetries === undefined ? ownMaxRetries : Math.min(overrides.maxRetries, ownMaxRetries);
    let attempted = false;
    for (let retry = 0; retry <= maxRetries; retry++) {
      if (this.#total.signal.aborted) throw this.#total.signal.reason;
      if (target.maxConcurrency !== undefined && health.inFlight(target.key) >= target.maxConcurrency)
        return { attempted, atCapacity: true };
      attempted = true;
      const budgetMs = Math.min(this.#firstByteOf(model), sliceEnd - Date.now());
      if (budgetMs <= 0) break;
      const { attempt, race } = await this.#attempt(modelIndex, target, budgetMs);
      if (race.result.ok) return { outcome: this.#outcomeOf(race.attempt, race.result.value, model) };
      if (!(await this.#afterFailure(attempt, race.result.thrown, retry, maxRetries, sliceEnd))) break;
    }
    return { attempted, atCapacity: false };
  }

  /** Starts one attempt on `target`, hedged when the requested model asks for it and no hedge ran yet. */
  async #attempt(
    modelIndex: number,
    target: RouteTarget,
    budgetMs: number,
  ): Promise<{ attempt: PlanAttempt<T>; race: HedgeRaceResult<T> }> {
    const { health, hooks } = this.#options;
    const fallback = modelIndex > 0;
    this.#attempts++;
    this.#settleFailed(target);
    const headers = hooks ? safely(() => hooks.start(target, this.#attempts, fallback)) : undefined;
    const attempt = new PlanAttempt(this.#context, target, this.#attempts, fallback, budgetMs, headers);
    const hedge = this.#first.hedge;
    const hedgeDelay = hedge && !this.#hedged ? hedgeDelayMs(hedge, health, target.key) : undefined;
    const race: HedgeRaceResult<T> =
      hedgeDelay !== undefined && hedgeDelay < budgetMs
        ? await raceHedged(attempt, hedgeDelay, this.#launchHedge(modelIndex, target), this.#sideFailure)
        : { attempt, result: await attempt.result };
    if (race.primaryFailure !== undefined) this.#sideFailure(attempt, race.primaryFailure);
    return { attempt, race };
  }

  /**
   * After a failed attempt: throws when nothing may follow (the client left, a non-retryable error, a timeout after
   * the upstream accepted the call, the total deadline); resolves false to move to the next target, or true after
   * waiting the backoff (`retry-after`, else full jitter) to retry the same one.
   */
  async #afterFailure(
    attempt: PlanAttempt<T>,
    thrown: unknown,
    retry: number,
    maxRetries: number,
    sliceEnd: number,
  ): Promise<boolean> {
    const { health, signal, policy } = this.#options;
    const error = attempt.fail(thrown);
    const { record, target } = attempt;
    this.#failed = {
      target,
      attempt: attempt.number,
      fallback: attempt.fallback,
      durationMs: record.durationMs,
      error,
    };
    if (signal.aborted) throw signal.reason ?? error;
    if (!isRetryableError(error)) throw withAttempts(error, this.#attempts, this.#records);
    // Accepted, then timed out: the upstream may still be generating (and billing) this answer.
    if (record.accepted && GatewayError.isInstance(error) && error.status === 504)
      throw withAttempts(error, this.#attempts, this.#records);
    health.failure(target.key);
    this.#lastError = error;
    if (this.#total.signal.aborted) throw withAttempts(this.#total.signal.reason, this.#attempts, this.#records);
    if (retry === maxRetries || (GatewayError.isInstance(error) && error.retry === 'other-target')) return false;
    const wait = retryDelayMs(retry, error, policy.backoff, this.#options.random);
    if (Date.now() + wait >= Math.min(this.#deadline, sliceEnd)) return false;
    await sleep(wait, undefined, { signal: this.#total.signal }).catch(() => {});
    return true;
  }

  /** Starts the one hedge of the call on the next deployment, unless none is left or no time remains. */
  #launchHedge(modelIndex: number, current: RouteTarget): () => PlanAttempt<T> | undefined {
    return () => {
      const { health, hooks, plan } = this.#options;
      const picked = pickHedgeTarget(this.#ordered, modelIndex, current, health);
      const budgetMs =
        picked && Math.min(this.#firstByteOf(plan.models[picked.modelIndex]!), this.#deadline - Date.now());
      if (!picked || !budgetMs || budgetMs <= 0 || this.#total.signal.aborted) return undefined;
      this.#hedged = true;
      this.#attempts++;
      const fallback = picked.modelIndex > 0;
      const headers = hooks ? safely(() => hooks.start(picked.target, this.#attempts, fallback)) : undefined;
      return new PlanAttempt(this.#context, picked.target, this.#attempts, fallback, budgetMs, headers);
    };
  }

  /** A failure that does not decide what comes next (a hedge, or a primary whose hedge answered): booked at once. */
  readonly #sideFailure = (attempt: PlanAttempt<T>, thrown: unknown): void => {
    const { health, hooks, signal } = this.#options;
    const error = attempt.fail(thrown);
    if (isRetryableError(error) && !signal.aborted) health.failure(attempt.target.key);
    if (hooks)
      safely(() =>
        hooks.end(attempt.target, attempt.number, attempt.fallback, 'fallback', attempt.record.durationMs, error),
      );
    this.#lastError = error;
  };

  /** Reports the last failed attempt as `retry` (same target next), `fallback` (another) or `error` (none). */
  #settleFailed(next: RouteTarget | undefined): void {
    const failed = this.#failed;
    const { hooks } = this.#options;
    if (!failed || !hooks) return;
    const outcome: AttemptOutcome =
      next === undefined ? 'error' : next.key === failed.target.key ? 'retry' : 'fallback';
    safely(() => hooks.end(failed.target, failed.attempt, failed.fallback, outcome, failed.durationMs, failed.error));
    this.#failed = undefined;
  }

  /** The winner's {@link PlanOutcome}: its value and the handles the caller keeps until the answer is sent. */
  #outcomeOf(winner: PlanAttempt<T>, value: T, model: PlanModel): PlanOutcome<T> {
    winner.succeed();
    let reported = false;
    const ended = (outcome: AttemptOutcome, error?: unknown) => {
      if (reported) return;
      reported = true;
      winner.ended(outcome, error);
    };
    return {
      value,
      target: winner.target,
      attempts: this.#attempts,
      records: this.#records,
      signal: winner.signal,
      idleMs: model.timeouts?.idleMs ?? this.#first.timeouts?.idleMs ?? this.#options.policy.timeouts.idleMs,
      deadline: this.#deadline,
      abort: (reason) => winner.controller.abort(reason),
      ended,
      release: (broken = false) => {
        if (!broken) ended('ok');
        this.#finish();
        winner.release();
      },
    };
  }

  #firstByteOf(model: PlanModel): number {
    return (
      model.timeouts?.firstByteMs ?? this.#first.timeouts?.firstByteMs ?? this.#options.policy.timeouts.firstByteMs
    );
  }

  /** Aborts the call with the total deadline's 504 (its timer, or a deadline found passed before its timer ran). */
  #timeOut(): void {
    this.#total.abort(timeoutError('did not complete in time', this.#totalMs));
  }

  /** Clears the total deadline's timer and the client-abort listener. */
  #finish(): void {
    clearTimeout(this.#totalTimer);
    this.#options.signal.removeEventListener('abort', this.#onClientAbort);
  }
}
