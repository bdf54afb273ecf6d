import { describe, expect, it } from 'vitest';
import { DEFAULT_HEDGE_AFTER_MS, hedgeDelayMs } from '../src/routing/hedge-attempts.js';
import { MIN_FIRST_BYTE_SAMPLES, TargetHealth } from '../src/routing/target-health.js';

describe('hedge delay', () => {
  it('after_ms is used as given', () => {
    expect(hedgeDelayMs({ afterMs: 800 }, new TargetHealth(), 'p/m')).toBe(800);
  });

  it('after: p95 falls back to after_ms, else the default, until enough first-byte samples exist', () => {
    const health = new TargetHealth();
    for (let i = 0; i < MIN_FIRST_BYTE_SAMPLES - 1; i++) health.success('p/m', 100);
    expect(hedgeDelayMs({ after: 'p95', afterMs: 700 }, health, 'p/m')).toBe(700);
    expect(hedgeDelayMs({ after: 'p95' }, health, 'p/m')).toBe(DEFAULT_HEDGE_AFTER_MS);
  });

  it('after: p95 is the 95th percentile (nearest rank) of the last 100 times to first byte', () => {
    const health = new TargetHealth();
    // 150 samples: the first 50 (slow) fall out of the window of 100; the last 100 are 1..100 ms.
    for (let i = 0; i < 50; i++) health.success('p/m', 10_000);
    for (let ms = 1; ms <= 100; ms++) health.success('p/m', ms);
    expect(hedgeDelayMs({ after: 'p95', afterMs: 700 }, health, 'p/m')).toBe(95);
    expect(hedgeDelayMs({ after: 'p50' }, health, 'p/m')).toBe(50);
    expect(health.firstBytePercentile('other/m', 95)).toBeUndefined();
  });
});
