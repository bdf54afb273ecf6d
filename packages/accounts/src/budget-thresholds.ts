import type { BudgetSettledEvent } from './accounts-options.js';
import { BUDGET_EPSILON_USD } from './memory-limiter.js';

/** Fractions of a budget that raise an alert when spend crosses them. */
export const BUDGET_THRESHOLDS: readonly number[] = [0.8, 1];

/**
 * One budget threshold a settled call's spend crossed: whose budget (`subject`: `key`, `team`, `organization`,
 * `end_user` or `session`, with `id` the key, team or organisation id, or the end user or session id), the fraction
 * crossed, the window's spend after the call and the budget (USD).
 */
export interface BudgetCrossing {
  subject: 'key' | 'team' | 'organization' | 'end_user' | 'session';
  id: string;
  key_id: string;
  team_id: string | null;
  /** The organisation of the key's team; null when none. */
  organization_id: string | null;
  /** The budget window (`<period>:<start unix ms>`). */
  window: string;
  threshold: number;
  spend_usd: number;
  budget_usd: number;
}

const SUBJECT = { team: 'team', organization: 'organization', 'end user': 'end_user', session: 'session' } as const;

/**
 * The thresholds (see {@link BUDGET_THRESHOLDS}) that one settlement's spend crossed, for each budget window it added
 * to: those with spend before the call (spend after less the call's cost) below `threshold x budget` and spend after
 * at or above it. Each crossing belongs to exactly one call, on every replica (the limiter adds spend atomically).
 */
export function budgetCrossings(
  event: BudgetSettledEvent,
  thresholds: readonly number[] = BUDGET_THRESHOLDS,
): BudgetCrossing[] {
  const crossings: BudgetCrossing[] = [];
  const { key, admission } = event;
  for (const settled of event.budgets) {
    const scope = admission.scopes?.find((s) => s.id === settled.id);
    const budgetUsd = settled.id === key.id ? key.budget_usd : scope?.budget?.limitUsd;
    if (!budgetUsd || (!scope && settled.id !== key.id)) continue;
    const before = settled.spentUsd - settled.costUsd;
    const subject = scope ? SUBJECT[scope.what] : 'key';
    const id =
      subject === 'key'
        ? key.id
        : subject === 'team'
          ? (admission.teamId ?? settled.id)
          : subject === 'organization'
            ? (admission.organizationId ?? settled.id)
            : (scope?.party ?? settled.id);
    for (const threshold of thresholds) {
      const mark = threshold * budgetUsd - BUDGET_EPSILON_USD;
      if (before < mark && settled.spentUsd >= mark) {
        crossings.push({
          subject,
          id,
          key_id: key.id,
          team_id: admission.teamId ?? null,
          organization_id: admission.organizationId ?? null,
          window: settled.window,
          threshold,
          spend_usd: settled.spentUsd,
          budget_usd: budgetUsd,
        });
      }
    }
  }
  return crossings;
}
