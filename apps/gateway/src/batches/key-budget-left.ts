import { type Accounts, type Principal, budgetWindowStart } from '@switchyard/accounts';

/** What is left of a key's budget in its current window (see {@link keyBudgetLeft}). */
export interface KeyBudgetLeft {
  /** USD left: the budget minus the spend booked in the ledger since the window began (negative when overspent). */
  left: number;
  /** The key's budget, USD per `period`. */
  budget: number;
  period: string;
}

/**
 * What is left of `principal`'s budget (a virtual key with `budget_usd`) in its current budget window: the spend booked
 * in the ledger (`accounts.usage`, USD) subtracted from it. Undefined without accounts, for a key from the config file
 * or one without a budget. Throws the store's errors.
 */
export async function keyBudgetLeft(
  accounts: Accounts | undefined,
  principal: Principal | undefined,
): Promise<KeyBudgetLeft | undefined> {
  if (!accounts || principal?.kind !== 'virtual' || principal.state.key.budget_usd === null) return undefined;
  const { key } = principal.state;
  const from = budgetWindowStart(key.budget_period, Date.now());
  const spent = (await accounts.usage({ key_id: key.id, ...(from > 0 && { from }) }))[0]?.cost_usd ?? 0;
  const budget = key.budget_usd ?? 0;
  return { left: budget - spent, budget, period: key.budget_period };
}
