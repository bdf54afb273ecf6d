import type { BalancingStrategy } from '../model/model-definition.js';
import type { RouteTarget } from '../model/route-plan.js';
import type { TargetHealth } from './target-health.js';

/**
 * Orders a model's deployments for one request; the first is tried first, the rest are its in-model failover order.
 * - `weighted`: weighted random order without replacement (a target with weight 3 comes first 3 times as often as
 *   one with weight 1);
 * - `round-robin`: rotates the starting target on every call (`counter` is the model's call count);
 * - `least-busy`: fewest requests in flight first (ties keep config order);
 * - `lowest-latency`: lowest moving average of time to first byte first; unmeasured targets first, so each gets probed.
 * Targets whose breaker is open go last, so they are only tried when nothing else is left.
 */
export function orderTargets(
  targets: readonly RouteTarget[],
  strategy: BalancingStrategy,
  health: TargetHealth,
  counter: number,
  random: () => number = Math.random,
): RouteTarget[] {
  let ordered: RouteTarget[];
  switch (strategy) {
    case 'round-robin': {
      const start = counter % targets.length;
      ordered = [...targets.slice(start), ...targets.slice(0, start)];
      break;
    }
    case 'least-busy':
      ordered = [...targets].sort((a, b) => health.inFlight(a.key) - health.inFlight(b.key));
      break;
    case 'lowest-latency':
      ordered = [...targets].sort((a, b) => (health.latencyMs(a.key) ?? -1) - (health.latencyMs(b.key) ?? -1));
      break;
    default: {
      const pool = [...targets];
      ordered = [];
      while (pool.length > 0) {
        const total = pool.reduce((sum, t) => sum + Math.max(0, t.weight), 0);
        let pick = random() * total;
        let index = pool.findIndex((t) => (pick -= Math.max(0, t.weight)) < 0);
        if (index < 0) index = pool.length - 1;
        ordered.push(pool.splice(index, 1)[0]!);
      }
    }
  }
  const healthy = ordered.filter((t) => !health.isCoolingDown(t.key));
  return healthy.length === ordered.length
    ? ordered
    : [...healthy, ...ordered.filter((t) => health.isCoolingDown(t.key))];
}
