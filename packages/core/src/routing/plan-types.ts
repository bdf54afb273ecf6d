import type { AttemptReport } from '../accounting/call-accounting.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
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
  run(
    target: RouteTarget,
    signal: AbortSignal,
    headers: Record<string, string> | undefined,
    accepted: () => void,
  ): Promise<T>;
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
  end(
    target: RouteTarget,
    attempt: number,
    fallback: boolean,
    outcome: AttemptOutcome,
    durationMs: number,
    error?: unknown,
  ): void;
}
