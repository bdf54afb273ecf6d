import { DateTime } from 'luxon';
import type { BudgetPeriod } from './limit-fields.js';

/**
 * Start of the current budget period (unix ms): today 00:00, this week's Monday 00:00, the 1st of this month 00:00,
 * all in `timeZone` (an IANA name, default `UTC`), or 0 for `total`; never before `startedAt` (unix ms, when the budget
 * or its period was last set: see `LimitFields.budget_started_at`).
 * Throws for an unknown time zone.
 */
export function budgetWindowStart(period: BudgetPeriod, now = Date.now(), timeZone = 'UTC', startedAt = 0): number {
  let start = 0;
  if (period !== 'total') {
    const local = DateTime.fromMillis(now, { zone: timeZone });
    if (!local.isValid) throw new Error(`Unknown time zone '${timeZone}'.`);
    start = local.startOf(period).toMillis();
  }
  return Math.max(start, startedAt);
}

/** The budget window of `period` in force at `now`: its identity (`<period>:<start unix ms>`) and start. */
export function budgetWindow(
  period: BudgetPeriod,
  now = Date.now(),
  timeZone = 'UTC',
  startedAt: string | null | undefined = null,
): { id: string; start: number } {
  const start = budgetWindowStart(period, now, timeZone, startedAt ? Date.parse(startedAt) : 0);
  return { id: `${period}:${start}`, start };
}

/** True when `timeZone` is an IANA time zone name luxon knows (e.g. `Europe/Paris`, `UTC`). */
export function isTimeZone(timeZone: string): boolean {
  return DateTime.now().setZone(timeZone).isValid;
}
