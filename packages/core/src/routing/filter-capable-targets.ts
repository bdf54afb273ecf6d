import { invalidRequestError } from '../errors/common-errors.js';
import type { RequiredCapability } from '../gateway/model-capabilities.js';
import type { RoutePlan, RouteTarget } from '../gateway/model-router.js';

/** True when the target declares no capabilities (unknown: assumed able) or declares every one `needs` lists. */
export function targetCan(target: RouteTarget, needs: readonly RequiredCapability[]): boolean {
  if (!target.capabilities) return true;
  return needs.every((need) => target.capabilities!.includes(need.capability));
}

/**
 * Capability-aware routing: keeps only the deployments of `plan` (the requested model's and its fallbacks') that can
 * serve a request needing `needs`; a deployment without a `capabilities` list is assumed able. Models left without a
 * deployment are dropped. Throws 400 `invalid_request_error`, code `capability_not_supported`, naming the first
 * capability no deployment has (its `param` is the request field that needs it).
 */
export function filterCapableTargets(plan: RoutePlan, needs: readonly RequiredCapability[]): RoutePlan {
  if (needs.length === 0) return plan;
  const models = plan.models.map((m) => ({ ...m, targets: m.targets.filter((t) => targetCan(t, needs)) })).filter((m) => m.targets.length > 0);
  if (models.length > 0) return { ...plan, models };
  const all = plan.models.flatMap((m) => m.targets);
  const missing = needs.find((need) => !all.some((t) => targetCan(t, [need]))) ?? needs[0]!;
  throw invalidRequestError(
    `No deployment of model '${plan.model}' supports '${missing.capability}', which this request needs ('${missing.param}').`,
    missing.param,
    'capability_not_supported',
  );
}
