import type { AttemptHooks } from '../routing/execute-plan.js';
import type { GatewayObserver } from '../routing/router-events.js';
import type { RouteTarget } from '../model/route-plan.js';

/**
 * The router's attempt hooks that tell every {@link GatewayObserver} when an upstream attempt starts (observers may
 * add headers to it, e.g. `traceparent`) and how it ended (outcome, duration in ms, error). An observer that throws
 * is ignored. Undefined when nobody observes, so that calls pay nothing for observation.
 */
export function attemptObserverHooks(
  observers: readonly GatewayObserver[],
  operation: string,
  requestedModel: string,
  requestId: string,
): AttemptHooks | undefined {
  if (observers.length === 0) return undefined;
  const event = (target: RouteTarget, attempt: number, fallback: boolean) => ({
    operation,
    requestId,
    requestedModel,
    model: target.model,
    provider: target.provider,
    upstreamModel: target.upstreamModel,
    attempt,
    fallback,
  });
  return {
    start: (target, attempt, fallback) => {
      let headers: Record<string, string> | undefined;
      const started = event(target, attempt, fallback);
      for (const observer of observers) {
        try {
          const result = observer.attemptStarted?.(started);
          if (result?.headers) headers = { ...headers, ...result.headers };
        } catch {}
      }
      return headers;
    },
    end: (target, attempt, fallback, outcome, durationMs, error) => {
      const ended = { ...event(target, attempt, fallback), outcome, durationMs, error };
      for (const observer of observers) {
        try {
          observer.attemptEnded?.(ended);
        } catch {}
      }
    },
  };
}

/**
 * The breaker callback of `TargetHealth`: tells every observer (read from `observers()` at each change) that the
 * deployment `key` (`<provider>/<upstream model>`) started or stopped cooling down. An observer that throws is ignored.
 */
export function cooldownNotifier(
  observers: () => readonly GatewayObserver[],
): (key: string, coolingDown: boolean) => void {
  return (key, coolingDown) => {
    const slash = key.indexOf('/');
    const event = { key, provider: key.slice(0, slash), upstreamModel: key.slice(slash + 1), coolingDown };
    for (const observer of observers()) {
      try {
        observer.cooldownChanged?.(event);
      } catch {}
    }
  };
}
