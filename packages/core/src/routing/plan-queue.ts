import { GatewayError } from '../errors/gateway-error.js';
import type { RouteTarget } from '../model/route-plan.js';
import type { TargetHealth } from './target-health.js';

/** The targets of each model of a plan, in the order they will be tried. */
export type OrderedTargets = readonly (readonly RouteTarget[])[];

/** True when every target is cooling down or at its `maxConcurrency` (nothing can take the call now). */
export function noneAvailable(ordered: OrderedTargets, health: TargetHealth): boolean {
  return ordered.every((targets) =>
    targets.every(
      (t) =>
        health.isCoolingDown(t.key) || (t.maxConcurrency !== undefined && health.inFlight(t.key) >= t.maxConcurrency),
    ),
  );
}

/** The earliest time (unix ms) a cooling-down target of `ordered` comes back; Infinity when none is cooling down. */
export function nextCooldownEnd(ordered: OrderedTargets, health: TargetHealth): number {
  let next = Number.POSITIVE_INFINITY;
  for (const targets of ordered)
    for (const t of targets) next = Math.min(next, health.cooldownEndsAt(t.key) || Number.POSITIVE_INFINITY);
  return next;
}

/**
 * The queue of `policy.queueMs`: while every deployment is cooling down or at its cap and `queueUntil` (unix ms) has
 * not passed, waits for a cooldown to end or a slot to free. Throws the call's abort reason when `signal` fires.
 */
export async function waitWhileNoneAvailable(
  ordered: OrderedTargets,
  health: TargetHealth,
  queueUntil: number,
  signal: AbortSignal,
): Promise<void> {
  while (Date.now() < queueUntil && noneAvailable(ordered, health)) {
    await health.whenSettled(Math.min(queueUntil, nextCooldownEnd(ordered, health)) - Date.now(), signal);
    if (signal.aborted) throw signal.reason;
  }
}

/** 429 `deployments_at_capacity`: every deployment of `model` stayed at its `max_concurrency` through the queue. */
export const capacityError = (model: string) =>
  new GatewayError({
    status: 429,
    type: 'rate_limit_error',
    code: 'deployments_at_capacity',
    message: `Every deployment of '${model}' is at its concurrency limit (max_concurrency); try again shortly.`,
  });
