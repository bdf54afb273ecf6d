import type { CallOverrides } from '../routing/execute-plan.js';
import type { RoutingPolicy } from '../routing/routing-policy.js';
import type { GatewayCallOptions } from './gateway-options.js';

/**
 * A request's own limits (`x-switchyard-max-retries`, `x-switchyard-timeout-ms`), cut to the policy's ceilings and
 * made whole numbers (retries >= 0, timeout >= 1 ms); non-finite values are ignored. `executePlan` then keeps the
 * lower of these and the model's own, so a client can only lower its limits.
 */
export function clampOverrides(policy: RoutingPolicy, options: GatewayCallOptions): CallOverrides {
  const clamp = (value: number | undefined, max: number, min: number) =>
    value === undefined || !Number.isFinite(value) ? undefined : Math.min(max, Math.max(min, Math.floor(value)));
  return {
    maxRetries: clamp(options.maxRetries, policy.ceilings.maxRetries, 0),
    timeoutMs: clamp(options.timeoutMs, policy.ceilings.timeoutMs, 1),
  };
}
