import { describe, expect, it } from 'vitest';
import {
  costUsd,
  dailySeries,
  daysBetween,
  formatMs,
  formatTime,
  formatUsd,
  keyStatus,
  lastDays,
  parseModelList,
} from '../src/format.js';

describe('console formatting', () => {
  it('formats USD, durations and UTC times as text', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(12.5)).toBe('$12.50');
    expect(formatUsd(0.0024316)).toBe('$0.00243');
    expect(formatUsd(0.5)).toBe('$0.5');
    expect(formatMs(null)).toBe('—');
    expect(formatMs(42.4)).toBe('42 ms');
    expect(formatMs(1340)).toBe('1.3 s');
    expect(formatTime(Date.UTC(2026, 10, 22, 9, 5, 7))).toBe('2026-11-22 09:05:07 UTC');
    expect(formatTime('2099-01-01T00:00:00.000Z')).toBe('2099-01-01 00:00:00 UTC');
  });

  it('builds a per-day series with zeros on days without usage', () => {
    const days = daysBetween('2026-11-20', '2026-11-22');
    expect(days).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(dailySeries(days, [{ group: '2026-11-21', cost_usd: 0.5, total_tokens: 100 }])).toEqual([
      [Date.UTC(2026, 10, 20) / 1000, Date.UTC(2026, 10, 21) / 1000, Date.UTC(2026, 10, 22) / 1000],
      [0, 0.5, 0],
      [0, 100, 0],
    ]);
    expect(lastDays(7, Date.UTC(2026, 10, 22, 23, 59))).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(daysBetween('2026-11-22', '2026-11-20')).toEqual([]);
  });

  it('reads the Models field, tells key status and computes cost from USD per million tokens', () => {
    expect(parseModelList(' gpt-4o*, anthropic/*\nx ')).toEqual(['gpt-4o*', 'anthropic/*', 'x']);
    expect(parseModelList('  ')).toBeNull();
    expect(keyStatus({ revoked_at: '2026-01-01T00:00:00Z', expires_at: null })).toBe('revoked');
    expect(keyStatus({ revoked_at: null, expires_at: '2000-01-01T00:00:00Z' })).toBe('expired');
    expect(keyStatus({ revoked_at: null, expires_at: null })).toBe('active');
    expect(costUsd({ input: 2, output: 8 }, 1000, 500)).toBeCloseTo(0.006, 12);
    expect(costUsd(null, 1000, 500)).toBe(0);
  });
});
