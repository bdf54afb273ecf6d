import type { HedgePolicy } from '../model/model-definition.js';
import type { RouteTarget } from '../model/route-plan.js';
import type { AttemptResult, PlanAttempt } from './plan-attempt.js';
import type { TargetHealth } from './target-health.js';

/**
 * Hedge delay used with `hedge.after: pNN` while the deployment has fewer than `MIN_FIRST_BYTE_SAMPLES` observed times
 * to first byte and no `after_ms` is configured, ms.
 */
export const DEFAULT_HEDGE_AFTER_MS = 1_000;

/**
 * How long an attempt on deployment `key` may go without a first byte before a hedge starts, ms: `hedge.after` as a
 * percentile of the deployment's observed times to first byte ({@link TargetHealth.firstBytePercentile}); before it
 * has enough samples, or without `after`, `hedge.afterMs`, else {@link DEFAULT_HEDGE_AFTER_MS}.
 */
export function hedgeDelayMs(hedge: HedgePolicy, health: TargetHealth, key: string): number {
  if (hedge.after) {
    const observed = health.firstBytePercentile(key, Number(hedge.after.slice(1)));
    if (observed !== undefined) return Math.max(1, Math.round(observed));
  }
  return hedge.afterMs ?? DEFAULT_HEDGE_AFTER_MS;
}

/**
 * The deployment a hedge goes to while `current` (a target of model `modelIndex`) is being waited on: the next one in
 * the request's order (the same model's remaining deployments, then its fallbacks') that is another deployment, is
 * not cooling down and is below its `maxConcurrency`. Undefined when there is none.
 */
export function pickHedgeTarget(
  ordered: readonly (readonly RouteTarget[])[],
  modelIndex: number,
  current: RouteTarget,
  health: TargetHealth,
): { target: RouteTarget; modelIndex: number } | undefined {
  let seenCurrent = false;
  for (let m = modelIndex; m < ordered.length; m++) {
    for (const target of ordered[m]!) {
      if (m === modelIndex && !seenCurrent) {
        seenCurrent = target === current;
        continue;
      }
      if (target.key === current.key || health.isCoolingDown(target.key)) continue;
      if (target.maxConcurrency !== undefined && health.inFlight(target.key) >= target.maxConcurrency) continue;
      return { target, modelIndex: m };
    }
  }
  return undefined;
}

/** How a hedge race ended: the attempt whose result counts, and the primary's failure when it failed first. */
export interface HedgeRaceResult<T> {
  attempt: PlanAttempt<T>;
  result: AttemptResult<T>;
  /** The primary failed before the hedge answered (the caller books that failure). */
  primaryFailure?: unknown;
}

/**
 * Hedged request: waits for `primary`'s first byte; when none came within `delayMs` (ms), starts a second attempt with
 * `launch()` (undefined: nothing to hedge with) and races the two. The first success wins and the other is
 * {@link PlanAttempt.abandon}ed at once (aborted, billed with what its upstream reported). When one fails first the
 * other is awaited: a failed hedge is handed to `hedgeFailed` and the primary's result returned; a failed primary is
 * returned as `primaryFailure` next to the hedge's result. Never rejects. At most one extra attempt is started.
 */
export async function raceHedged<T>(
  primary: PlanAttempt<T>,
  delayMs: number,
  launch: () => PlanAttempt<T> | undefined,
  hedgeFailed: (hedge: PlanAttempt<T>, thrown: unknown) => void,
): Promise<HedgeRaceResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const fired = await Promise.race([
    primary.firstByte.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), delayMs);
    }),
  ]);
  clearTimeout(timer);
  const hedge = fired && !primary.record.accepted ? launch() : undefined;
  if (!hedge) return { attempt: primary, result: await primary.result };
  primary.hedged = true;
  hedge.hedged = true;
  const first = await Promise.race([primary.result.then(() => primary), hedge.result.then(() => hedge)]);
  const other = first === primary ? hedge : primary;
  const result = first.settledResult!;
  if (result.ok) {
    other.abandon(other.settledResult);
    return { attempt: first, result };
  }
  const otherResult = await other.result;
  if (first === hedge) {
    hedgeFailed(hedge, result.thrown);
    return { attempt: primary, result: otherResult };
  }
  if (otherResult.ok) return { attempt: hedge, result: otherResult, primaryFailure: result.thrown };
  hedgeFailed(hedge, otherResult.thrown);
  return { attempt: primary, result };
}
