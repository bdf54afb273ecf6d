import { describe, expect, it } from 'vitest';
import { budgetWindow, budgetWindowStart, isTimeZone } from '../src/index.js';

// Wednesday 26 November 2026, 22:30 UTC = Thursday 27 November, 07:30 in Tokyo (UTC+9).
const NOW = Date.UTC(2026, 10, 26, 22, 30);

describe('budget windows', () => {
  it('start at the day, the Monday and the 1st of the month in UTC by default, and never for total', () => {
    expect(budgetWindowStart('day', NOW)).toBe(Date.UTC(2026, 10, 26));
    expect(budgetWindowStart('week', NOW)).toBe(Date.UTC(2026, 10, 23));
    expect(budgetWindowStart('month', NOW)).toBe(Date.UTC(2026, 10, 1));
    expect(budgetWindowStart('total', NOW)).toBe(0);
  });

  it('reset at midnight in the configured time zone, daylight saving time included', () => {
    expect(budgetWindowStart('day', NOW, 'Asia/Tokyo')).toBe(Date.UTC(2026, 10, 26, 15));
    expect(budgetWindowStart('month', Date.UTC(2026, 10, 30, 16), 'Asia/Tokyo')).toBe(Date.UTC(2026, 10, 30, 15));
    // New York: EDT (UTC-4) until 1 November 2026, EST (UTC-5) after.
    expect(budgetWindowStart('month', NOW, 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 4));
    expect(budgetWindowStart('day', NOW, 'America/New_York')).toBe(Date.UTC(2026, 10, 26, 5));
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(() => budgetWindowStart('day', NOW, 'Mars/Olympus')).toThrow(/Unknown time zone/);
  });

  it('never start before the budget was set: a new budget or period is a new window', () => {
    const setAt = new Date(NOW - 3_600_000).toISOString();
    expect(budgetWindow('day', NOW, 'UTC', setAt)).toEqual({ id: `day:${NOW - 3_600_000}`, start: NOW - 3_600_000 });
    expect(budgetWindow('total', NOW, 'UTC', setAt).start).toBe(NOW - 3_600_000);
    // Set before the period began: the period's start.
    expect(budgetWindow('day', NOW, 'UTC', '2026-11-01T00:00:00Z').start).toBe(Date.UTC(2026, 10, 26));
  });
});

describe('budget windows, computed again when a period ends', () => {
  it('move to the next day, week and month at their boundaries in the time zone, going back in time included', () => {
    const midnight = Date.UTC(2026, 10, 27); // Friday 27 November 2026, 00:00 UTC
    expect(budgetWindowStart('day', midnight - 1)).toBe(Date.UTC(2026, 10, 26));
    expect(budgetWindowStart('day', midnight)).toBe(midnight);
    expect(budgetWindowStart('day', midnight - 1)).toBe(Date.UTC(2026, 10, 26));
    expect(budgetWindowStart('week', Date.UTC(2026, 10, 29, 23, 59))).toBe(Date.UTC(2026, 10, 23));
    expect(budgetWindowStart('week', Date.UTC(2026, 10, 30))).toBe(Date.UTC(2026, 10, 30));
    expect(budgetWindowStart('month', Date.UTC(2026, 11, 1) - 1)).toBe(Date.UTC(2026, 10, 1));
    expect(budgetWindowStart('month', Date.UTC(2026, 11, 1))).toBe(Date.UTC(2026, 11, 1));
    // New York's day of 1 November 2026 (DST ends) lasts 25 hours: 04:00 UTC to 05:00 UTC the next day.
    expect(budgetWindowStart('day', Date.UTC(2026, 10, 2, 4, 59), 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 4));
    expect(budgetWindowStart('day', Date.UTC(2026, 10, 2, 5), 'America/New_York')).toBe(Date.UTC(2026, 10, 2, 5));
    // Each time zone has its own periods.
    expect(budgetWindowStart('day', NOW, 'Asia/Tokyo')).toBe(Date.UTC(2026, 10, 26, 15));
    expect(budgetWindowStart('day', NOW, 'UTC')).toBe(Date.UTC(2026, 10, 26));
  });
});
