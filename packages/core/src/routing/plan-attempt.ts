import { GatewayError } from '../errors/gateway-error.js';
import type { AttemptReport } from '../accounting/call-accounting.js';
import { usageOf } from '../accounting/usage-of.js';
import type { RouteTarget } from '../model/route-plan.js';
import type { AttemptHooks, AttemptRecord, ExecutePlanOptions } from './plan-types.js';
import type { AttemptOutcome } from './router-events.js';
import type { TargetHealth } from './target-health.js';

/** What one attempt ended as: its value, or what it threw (normalised by {@link PlanAttempt.fail}). */
export type AttemptResult<T> = { ok: true; value: T } | { ok: false; thrown: unknown };

/** What every attempt of one call shares: the call's signals, the deployment health, and where attempts are reported. */
export interface AttemptContext<T> {
  health: TargetHealth;
  hooks?: AttemptHooks;
  run: ExecutePlanOptions<T>['run'];
  onAttempt?: (report: AttemptReport) => void;
  /** Releases a value that arrived after its attempt lost a hedge race (e.g. closes a stream). */
  dispose?: (value: T) => void;
  /** Aborts on the client's abort or the total deadline. */
  callSignal: AbortSignal;
  /** The client's own signal. */
  clientSignal: AbortSignal;
  /** Every attempt of the call, in start order. */
  records: AttemptRecord[];
}

const timeoutError = (what: string, ms: number) =>
  new GatewayError({
    status: 504,
    type: 'server_error',
    code: 'upstream_timeout',
    message: `The upstream ${what} (${ms} ms).`,
  });

/** The abort reason of the attempt that lost a hedge race. */
export const hedgeLostError = () =>
  new GatewayError({
    status: 499,
    type: 'server_error',
    code: 'hedge_lost',
    message: 'Another deployment answered first (hedged request).',
  });

/**
 * One upstream attempt of a call, started at construction: its own abort controller (linked to the call's), a
 * time-to-first-byte timer of `budgetMs` (ms) that stops once the upstream accepted the call, its in-flight slot, and
 * its {@link AttemptRecord}. The caller ends it exactly once with {@link succeed} (then {@link release} when the
 * answer is fully sent), {@link fail} or {@link abandon}.
 */
export class PlanAttempt<T> {
  readonly controller = new AbortController();
  readonly record: AttemptRecord;
  readonly started = Date.now();
  /** Resolves with the attempt's value or failure; never rejects. */
  readonly result: Promise<AttemptResult<T>>;
  /** Resolves once the upstream accepted the call (first byte) or the attempt ended. */
  readonly firstByte: Promise<void>;
  /** True when this attempt took part in a hedge race. */
  hedged = false;
  /** The attempt's result once it arrived (for a hedge race decided in the same tick). */
  settledResult?: AttemptResult<T>;
  #settled = false;
  #released = false;
  readonly #timer: NodeJS.Timeout;
  // A class field, not an assignment in the constructor: V8 keeps what a closure stored into a field after the
  // object was made (always one function literal) reachable across scavenges, so the whole call was promoted to the
  // old space (docs/performance-log.md, session 17, "gc").
  readonly #onCallAbort = () => this.controller.abort(this.context.callSignal.reason);

  constructor(
    readonly context: AttemptContext<T>,
    readonly target: RouteTarget,
    /** 1-based number of the attempt within the call. */
    readonly number: number,
    /** True past the requested model. */
    readonly fallback: boolean,
    budgetMs: number,
    headers: Record<string, string> | undefined,
  ) {
    const { callSignal, health } = context;
    callSignal.addEventListener('abort', this.#onCallAbort, { once: true });
    this.#timer = setTimeout(
      () => this.controller.abort(timeoutError('sent no first byte in time', budgetMs)),
      budgetMs,
    );
    this.record = {
      model: target.model,
      provider: target.provider,
      upstreamModel: target.upstreamModel,
      accepted: false,
      outcome: 'error',
      durationMs: 0,
    };
    context.records.push(this.record);
    let firstByte!: () => void;
    this.firstByte = new Promise<void>((resolve) => (firstByte = resolve));
    const accepted = () => {
      this.record.accepted = true;
      clearTimeout(this.#timer);
      firstByte();
    };
    health.begin(target.key);
    this.result = context.run(target, this.controller.signal, headers, accepted).then(
      (value): AttemptResult<T> => {
        if (this.#settled) context.dispose?.(value);
        firstByte();
        return (this.settledResult = { ok: true, value });
      },
      (thrown: unknown): AttemptResult<T> => {
        firstByte();
        return (this.settledResult = { ok: false, thrown });
      },
    );
  }

  /** The attempt's signal (client abort, total deadline, first-byte or idle timeout). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Records the attempt's success (health, accounting). Its slot is held until {@link release}; observers learn how
   * its answer ended from {@link ended}.
   */
  succeed(): void {
    this.#settled = true;
    const durationMs = Date.now() - this.started;
    clearTimeout(this.#timer);
    Object.assign(this.record, { accepted: true, outcome: 'success', durationMs });
    this.context.health.success(this.target.key, durationMs);
    this.context.onAttempt?.({
      target: this.target,
      status: 200,
      billable: true,
      latencyMs: durationMs,
      ...(this.hedged && { hedged: true }),
    });
  }

  /**
   * Tells the observers how a succeeded attempt's answer ended: `ok` (duration: to the answer, or a stream's first
   * chunk, ms) or a break mid-stream with what followed (duration: to the break, ms). Call once, after {@link succeed}.
   */
  ended(outcome: AttemptOutcome, error?: unknown): void {
    const { hooks } = this.context;
    if (!hooks) return;
    const durationMs = outcome === 'ok' ? this.record.durationMs : Date.now() - this.started;
    safely(() => hooks.end(this.target, this.number, this.fallback, outcome, durationMs, error));
  }

  /** Releases the in-flight slot and the call-abort link of a successful attempt (idempotent). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.context.callSignal.removeEventListener('abort', this.#onCallAbort);
    this.context.health.settle(this.target.key);
  }

  /**
   * Records the attempt's failure (record, accounting) and frees its slot; returns the error to act on: the attempt's
   * own timeout reason when the gateway aborted it, else what the adapter threw. Health and observers are left to the
   * caller, who knows whether the failure counts and what comes next.
   */
  fail(thrown: unknown): unknown {
    this.#settled = true;
    clearTimeout(this.#timer);
    this.release();
    const { clientSignal } = this.context;
    const signal = this.controller.signal;
    const error =
      signal.aborted && !clientSignal.aborted && GatewayError.isInstance(signal.reason) ? signal.reason : thrown;
    this.record.durationMs = Date.now() - this.started;
    this.record.status = GatewayError.isInstance(error) ? error.status : undefined;
    this.record.code = GatewayError.isInstance(error) ? error.code : undefined;
    this.context.onAttempt?.({
      target: this.target,
      status: clientSignal.aborted ? 499 : GatewayError.isInstance(error) ? error.status : 502,
      billable: signal.aborted,
      latencyMs: this.record.durationMs,
      ...(this.hedged && { hedged: true }),
    });
    return error;
  }

  /**
   * Ends the attempt that lost a hedge race: aborts it at once (the upstream connection closes), frees its slot, and
   * reports it as billable (the upstream may have worked on it), with the usage its answer reported when it had
   * already arrived (`late`). Observers see the outcome `hedge_lost`; the deployment's health is not marked failed.
   */
  abandon(late?: AttemptResult<T>): void {
    this.#settled = true;
    clearTimeout(this.#timer);
    this.controller.abort(hedgeLostError());
    this.release();
    if (late?.ok) this.context.dispose?.(late.value);
    const durationMs = Date.now() - this.started;
    Object.assign(this.record, { durationMs, status: 499, code: 'hedge_lost' });
    const { hooks } = this.context;
    if (hooks) safely(() => hooks.end(this.target, this.number, this.fallback, 'hedge_lost', durationMs));
    const usage = late?.ok ? usageOf(late.value) : undefined;
    this.context.onAttempt?.({
      target: this.target,
      status: 499,
      billable: true,
      latencyMs: durationMs,
      hedged: true,
      ...(usage && { usage }),
    });
  }
}

/** Runs an observer hook, ignoring what it throws. */
export function safely<R>(hook: () => R): R | undefined {
  try {
    return hook();
  } catch {
    return undefined;
  }
}
