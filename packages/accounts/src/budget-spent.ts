import type { KeyState } from './key-state.js';
import type { LedgerSeeds } from './ledger-seeds.js';
import type { Limiter, LimitRequest } from './limiter.js';

/** What {@link isBudgetSpent} asks: the limiter, the ledger (to seed a window), and the budgets' time zone (IANA). */
export interface BudgetSpentContext {
  limiter: Limiter;
  seeds: LedgerSeeds;
  timeZone: string;
}

/**
 * True when the key's budget (USD) in its current window is spent (settled spend at the budget; reservations of
 * calls in flight do not count), asked of the {@link Limiter} without taking anything (no request, token or slot).
 * False for keys without a budget. A window the limiter does not hold yet is seeded from the ledger first. Rejects
 * when the limiter's backend fails.
 */
export async function isBudgetSpent(context: BudgetSpentContext, state: KeyState): Promise<boolean> {
  const { key } = state;
  if (key.budget_usd === null) return false;
  const window = state.budgetWindow(Date.now(), context.timeZone);
  const request: LimitRequest = {
    keyId: key.id,
    rpm: null,
    tpm: null,
    tokens: 0,
    concurrency: null,
    budget: { limitUsd: key.budget_usd, window: window.id, reserveUsd: 0 },
  };
  let decision = await context.limiter.acquire(request);
  if (!decision.ok && decision.reason === 'seed' && request.budget) {
    request.budget.seedUsd = await context.seeds.spendSince(key.id, window.start);
    decision = await context.limiter.acquire(request);
  }
  return (
    !decision.ok && decision.reason === 'budget' && (decision.budget?.spentUsd ?? Infinity) >= key.budget_usd - 1e-9
  );
}
