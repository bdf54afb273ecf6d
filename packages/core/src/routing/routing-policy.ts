import type { CallTimeouts } from '../model/model-definition.js';
import type { BackoffPolicy } from './retry-delay.js';
import type { CooldownPolicy } from './target-health.js';

/** Gateway-wide retry, backoff, cooldown and timeout settings; models may override `maxRetries` and `timeouts`. */
export interface RoutingPolicy {
  /** Retries per target of retryable failures. Default 2. */
  maxRetries: number;
  backoff: BackoffPolicy;
  cooldown: CooldownPolicy;
  /** Defaults, ms: first byte 120,000; stream idle 60,000; total 600,000. */
  timeouts: Required<CallTimeouts>;
  /**
   * How long a request waits for a slot when every deployment is at its `max_concurrency`, ms; 0 (default): it gets
   * 429 `deployments_at_capacity` at once.
   */
  queueMs: number;
  /** Upper bounds for per-request overrides (`x-switchyard-max-retries`, `x-switchyard-timeout-ms`). */
  ceilings: { maxRetries: number; timeoutMs: number };
}

/** The defaults of {@link RoutingPolicy}. */
export const DEFAULT_ROUTING_POLICY: RoutingPolicy = {
  maxRetries: 2,
  backoff: { baseMs: 200, maxMs: 8_000 },
  cooldown: { failures: 3, cooldownMs: 30_000 },
  timeouts: { firstByteMs: 120_000, idleMs: 60_000, totalMs: 600_000 },
  ceilings: { maxRetries: 5, timeoutMs: 600_000 },
  queueMs: 0,
};

/** Merges partial settings over {@link DEFAULT_ROUTING_POLICY}. */
export function resolveRoutingPolicy(
  partial: Partial<Omit<RoutingPolicy, 'timeouts'>> & { timeouts?: CallTimeouts } = {},
): RoutingPolicy {
  const d = DEFAULT_ROUTING_POLICY;
  return {
    maxRetries: partial.maxRetries ?? d.maxRetries,
    backoff: { ...d.backoff, ...partial.backoff },
    cooldown: { ...d.cooldown, ...partial.cooldown },
    timeouts: {
      ...d.timeouts,
      ...Object.fromEntries(Object.entries(partial.timeouts ?? {}).filter(([, v]) => v !== undefined)),
    },
    ceilings: { ...d.ceilings, ...partial.ceilings },
    queueMs: partial.queueMs ?? d.queueMs,
  };
}
