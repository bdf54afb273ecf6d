import { invalidRequestError } from '../errors/common-errors.js';
import type { RequiredCapability } from '../model/model-capabilities.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
import { type ReportedCapabilities, reportedCan } from '../adapter/reported-capabilities.js';

/** Reads what a deployment's provider model list reports about it (see {@link ReportedCapabilities}). */
export type ReportedCapabilitiesOf = (target: RouteTarget) => ReportedCapabilities | undefined;

/**
 * True when the target can serve a request needing `needs`: its configured `capabilities` list when it has one;
 * else what its provider's model list reports (`reported`), a capability the list says nothing about being assumed
 * able; with neither, assumed able.
 */
export function targetCan(
  target: RouteTarget,
  needs: readonly RequiredCapability[],
  reported?: ReportedCapabilitiesOf,
): boolean {
  if (target.capabilities) return needs.every((need) => target.capabilities!.includes(need.capability));
  if (!reported) return true;
  const listed = reported(target);
  return needs.every((need) => reportedCan(listed, need.capability));
}

/**
 * Capability-aware routing: keeps only the deployments of `plan` (the requested model's and its fallbacks') that can
 * serve a request needing `needs` ({@link targetCan}: configured `capabilities`, else what `reported` says the
 * provider's model list reports, else assumed able). Models left without a
 * deployment are dropped. Throws 400 `invalid_request_error`, code `capability_not_supported`, naming the first
 * capability no deployment has (its `param` is the request field that needs it).
 */
export function filterCapableTargets(
  plan: RoutePlan,
  needs: readonly RequiredCapability[],
  reported?: ReportedCapabilitiesOf,
): RoutePlan {
  if (needs.length === 0) return plan;
  const models = plan.models
    .map((m) => ({ ...m, targets: m.targets.filter((t) => targetCan(t, needs, reported)) }))
    .filter((m) => m.targets.length > 0);
  if (models.length > 0) return { ...plan, models };
  const all = plan.models.flatMap((m) => m.targets);
  const missing = needs.find((need) => !all.some((t) => targetCan(t, [need], reported))) ?? needs[0]!;
  throw invalidRequestError(
    `No deployment of model '${plan.model}' supports '${missing.capability}', which this request needs ('${missing.param}').`,
    missing.param,
    'capability_not_supported',
  );
}

/** Where providers' model lists are read (the gateway's `ModelCatalog`): what a deployment reports it can do. */
export interface CapabilityLists {
  /** Makes the lists of `providers` available, waiting at most `waitMs` (ms) for a list never fetched. */
  prepareCapabilities(providers: Iterable<string>, waitMs: number): Promise<void>;
  /** What the provider's list reports for the upstream model, or undefined. */
  reportedCapabilities(provider: string, upstreamModel: string): ReportedCapabilities | undefined;
}

/** Longest wait for a provider's model list never fetched before, when a request needs capabilities, ms. */
export const CAPABILITY_LIST_WAIT_MS = 1_000;

/**
 * {@link filterCapableTargets} with what providers' model lists report for deployments without a configured
 * `capabilities` list: their lists are prepared first ({@link CapabilityLists.prepareCapabilities}, waiting at most
 * {@link CAPABILITY_LIST_WAIT_MS} for a list never fetched). Throws as {@link filterCapableTargets}.
 */
export async function filterCapableTargetsWithLists(
  plan: RoutePlan,
  needs: readonly RequiredCapability[],
  catalog: CapabilityLists,
): Promise<RoutePlan> {
  if (needs.length === 0) return plan;
  const unconfigured = new Set(
    plan.models.flatMap((m) => m.targets.filter((t) => !t.capabilities).map((t) => t.provider)),
  );
  if (unconfigured.size > 0) await catalog.prepareCapabilities(unconfigured, CAPABILITY_LIST_WAIT_MS);
  return filterCapableTargets(plan, needs, (target) =>
    catalog.reportedCapabilities(target.provider, target.upstreamModel),
  );
}
