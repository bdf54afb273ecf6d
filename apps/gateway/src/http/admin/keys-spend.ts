import { type Accounts, budgetWindow, type LimitFields, type UsageGroupBy } from '@switchyard/accounts';

/**
 * Adds `spend_usd` to each key, team or organisation (`by`): what it spent in its current budget window (today, this week, this
 * month in the accounts' reset time zone, or in total; never before its `budget_started_at`), USD, from the ledger.
 * One usage query per distinct window start, not one per record.
 */
export async function withWindowSpend<T extends LimitFields & { id: string }>(
  accounts: Accounts,
  records: T[],
  by: Extract<UsageGroupBy, 'key' | 'team' | 'organization'>,
  now = Date.now(),
): Promise<(T & { spend_usd: number })[]> {
  const startOf = (record: T) =>
    budgetWindow(record.budget_period, now, accounts.budgetTimeZone, record.budget_started_at).start;
  const spendByWindow = new Map<number, Map<string | undefined, number>>();
  for (const record of records) {
    const from = startOf(record);
    if (spendByWindow.has(from)) continue;
    const totals = await accounts.usage(from > 0 ? { from } : {}, by);
    spendByWindow.set(from, new Map(totals.map((t) => [t.group, t.cost_usd])));
  }
  return records.map((record) => ({ ...record, spend_usd: spendByWindow.get(startOf(record))?.get(record.id) ?? 0 }));
}

/** {@link withWindowSpend} for keys. */
export function withPeriodSpend<T extends LimitFields & { id: string }>(
  accounts: Accounts,
  keys: T[],
  now = Date.now(),
): Promise<(T & { spend_usd: number })[]> {
  return withWindowSpend(accounts, keys, 'key', now);
}
