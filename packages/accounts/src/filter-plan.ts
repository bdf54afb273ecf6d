import { GatewayError, type RoutePlan } from '@switchyard/core';
import { targetPrice } from './catalog-price.js';
import { matchesModelGlob } from './match-model-glob.js';
import { modelNotAllowedError } from './rate-limit-error.js';
import type { LimitFields } from './limit-fields.js';
import type { VirtualKey } from './virtual-key.js';

/** 403: a key with a budget asked for a model none of whose deployments has a price. */
export function modelNotPricedError(model: string): GatewayError {
  return new GatewayError({
    status: 403,
    type: 'invalid_request_error',
    code: 'model_not_priced',
    param: 'model',
    message: `This API key has a budget, and the model '${model}' has no known price (none configured, none in the catalogue), so its cost could not be counted. Configure a price for it, or use a key without a budget.`,
  });
}

/**
 * The part of a plan a key may use: models outside its allow-list (`models` globs) or its groups' (its team's, its
 * organisation's) are left out, fallbacks included (a key's list narrows its team's, a team's its organisation's,
 * never widens it). The allow-list is matched against what the requested model resolves to (`plan.models[0].id`: an alias's
 * target, the requested id itself for a pattern match or `<provider>/<id>`), never the alias name, so an alias cannot
 * lead a key to a model it may not use; for a key with a budget (its own, its team's or organisation's, or an end-user or session budget), deployments without a price (configured, else from the catalogue) are left out
 * too (their cost could not be counted).
 * Throws 403 `model_not_allowed` when the requested model itself is not allowed, and 403 `model_not_priced` when a
 * budgeted key is left with nothing.
 */
export function filterPlanForKey(
  plan: RoutePlan,
  key: VirtualKey,
  team?: LimitFields,
  organization?: LimitFields,
): RoutePlan {
  const resolved = plan.models[0]?.id ?? plan.model;
  if (!allowedBy(key, team, organization, resolved)) throw modelNotAllowedError(plan.model, resolved);
  const budgeted = isBudgeted(key) || isBudgeted(team) || isBudgeted(organization);
  // The common case, every model and deployment usable as they are, keeps the plan itself (nothing copied, no list of
  // the owners made).
  if (allUsable(plan, key, team, organization, budgeted)) return plan;
  const models = plan.models
    .filter((m) => allowedBy(key, team, organization, m.id))
    .map((m) => (budgeted && !m.targets.every(isPriced) ? { ...m, targets: m.targets.filter(isPriced) } : m))
    .filter((m) => m.targets.length > 0);
  if (models.length === 0) throw modelNotPricedError(plan.model);
  return { ...plan, models };
}

type Target = RoutePlan['models'][number]['targets'][number];

/** True when `owner` (a key, team or organisation) has no allow-list (`models` globs) or one that has model `id`. */
function allows(owner: LimitFields | undefined, id: string): boolean {
  return !owner?.models || matchesModelGlob(id, owner.models);
}

/** True when none of the key's, its team's and its organisation's allow-lists leaves model `id` out. */
function allowedBy(
  key: LimitFields,
  team: LimitFields | undefined,
  organization: LimitFields | undefined,
  id: string,
): boolean {
  return allows(key, id) && allows(team, id) && allows(organization, id);
}

/** True when `owner` has a budget (its own, or an end-user or session budget). */
function isBudgeted(owner: LimitFields | undefined): boolean {
  return (
    owner !== undefined &&
    (owner.budget_usd !== null || owner.end_user_budget_usd != null || owner.session_budget_usd != null)
  );
}

/** True when the deployment has a price: configured, else from the catalogue. */
function isPriced(target: Target): boolean {
  return Boolean(target.price) || Boolean(targetPrice(target).price);
}

/** True when every model of the plan is allowed and has deployments, all priced when `budgeted` (none made per call). */
function allUsable(
  plan: RoutePlan,
  key: LimitFields,
  team: LimitFields | undefined,
  organization: LimitFields | undefined,
  budgeted: boolean,
): boolean {
  if (plan.models.length === 0) return false;
  for (const model of plan.models) {
    if (!allowedBy(key, team, organization, model.id) || model.targets.length === 0) return false;
    if (budgeted) for (const target of model.targets) if (!isPriced(target)) return false;
  }
  return true;
}
