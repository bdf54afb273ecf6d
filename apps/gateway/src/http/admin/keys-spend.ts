import { type Accounts, budgetWindowStart, type VirtualKeyView } from '@switchyard/accounts';

/**
 * Adds `spend_usd` to each key: what it spent in its current budget period (today, this month, or in total; UTC),
 * USD, from the ledger. One usage query per distinct period start, not one per key.
 */
export async function withPeriodSpend(accounts: Accounts, keys: VirtualKeyView[], now = Date.now()): Promise<(VirtualKeyView & { spend_usd: number })[]> {
  const spendByWindow = new Map<number, Map<string | undefined, number>>();
  for (const key of keys) {
    const from = budgetWindowStart(key.budget_period, now);
    if (spendByWindow.has(from)) continue;
    const totals = await accounts.usage(from > 0 ? { from } : {}, 'key');
    spendByWindow.set(from, new Map(totals.map((t) => [t.group, t.cost_usd])));
  }
  return keys.map((key) => ({ ...key, spend_usd: spendByWindow.get(budgetWindowStart(key.budget_period, now))?.get(key.id) ?? 0 }));
}
