import { DateTime } from 'luxon';
import type { BudgetPeriod } from './limit-fields.js';

/** A calendar period of one time zone, [start, end) in unix ms, as last computed. */
interface Period {
  start: number;
  end: number;
}

/** Periods last computed, by `<period> <time zone>`: at most three periods per time zone in use. */
const periods = new Map<string, Period>();
/** Most entries of {@link periods} (time zones come from the config, so a handful): past it the map starts over. */
const MAX_PERIODS = 64;

/** The `day`, `week` or `month` of `timeZone` that holds `now` (luxon's calendar arithmetic: DST-aware). */
function periodAt(period: Exclude<BudgetPeriod, 'total'>, now: number, timeZone: string): Period {
  const cacheKey = `${period} ${timeZone}`;
  const cached = periods.get(cacheKey);
  if (cached && now >= cached.start && now < cached.end) return cached;
  const local = DateTime.fromMillis(now, { zone: timeZone });
  if (!local.isValid) throw new Error(`Unknown time zone '${timeZone}'.`);
  const start = local.startOf(period);
  const computed = { start: start.toMillis(), end: start.plus({ [period]: 1 }).toMillis() };
  if (periods.size >= MAX_PERIODS) periods.clear();
  periods.set(cacheKey, computed);
  return computed;
}

/**
 * Start of the current budget period (unix ms): today 00:00, this week's Monday 00:00, the 1st of this month 00:00,
 * all in `timeZone` (an IANA name, default `UTC`), or 0 for `total`; never before `startedAt` (unix ms, when the budget
 * or its period was last set: see `LimitFields.budget_started_at`). The period's bounds are computed once and reused
 * until it ends (calls of one period cost a map look-up).
 * Throws for an unknown time zone.
 */
export function budgetWindowStart(period: BudgetPeriod, now = Date.now(), timeZone = 'UTC', startedAt = 0): number {
  const start = period === 'total' ? 0 : periodAt(period, now, timeZone).start;
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
