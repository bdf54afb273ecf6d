import type { BudgetPeriod } from './virtual-key.js';

/** Start of the current budget period (unix ms, UTC): today 00:00, the 1st of this month, or 0 for `total`. */
export function budgetWindowStart(period: BudgetPeriod, now = Date.now()): number {
  const date = new Date(now);
  if (period === 'day') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  if (period === 'month') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  return 0;
}
