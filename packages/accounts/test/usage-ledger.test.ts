import { describe, expect, it, vi } from 'vitest';
import type { AccountStore, UsageRow } from '../src/index.js';
import { UsageLedger } from '../src/index.js';

/** A store whose ledger writes fail while `down` is true, like a database that went away. */
function flakyStore() {
  const rows: UsageRow[] = [];
  const state = { down: false, attempts: 0 };
  const store = {
    appendUsage: async (batch: readonly UsageRow[]) => {
      state.attempts++;
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      rows.push(...batch);
    },
  } as unknown as AccountStore;
  return { store, rows, state };
}

const row = (n: number): UsageRow => ({
  request_id: `req-${n}`,
  key_id: 'k',
  model: 'm',
  provider: null,
  upstream_model: null,
  prompt_tokens: 1,
  completion_tokens: 1,
  cost_usd: 0,
  latency_ms: 1,
  ttfb_ms: null,
  status: 200,
  stream: false,
  created_at: n,
});

describe('UsageLedger', () => {
  it('keeps rows while the store is down and writes them, in order, once it is back, retrying by itself', async () => {
    const { store, rows, state } = flakyStore();
    const errors: unknown[] = [];
    const ledger = new UsageLedger(store, { flushMs: 5, maxBatch: 3, maxRetryMs: 20, onError: (e) => errors.push(e) });
    state.down = true;
    for (let i = 0; i < 10; i++) ledger.record(row(i));
    await ledger.flush();
    expect(rows).toHaveLength(0);
    expect(ledger.pending).toBe(10);
    expect(errors.length).toBeGreaterThan(0);
    state.down = false;
    await vi.waitFor(() => expect(rows).toHaveLength(10), { timeout: 2000, interval: 5 });
    expect(rows.map((r) => r.created_at)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ledger.pending).toBe(0);
  });

  it('drops rows past maxBuffered and reports how many, keeping every row up to the bound', async () => {
    const { store, rows, state } = flakyStore();
    const drops: [number, number][] = [];
    const ledger = new UsageLedger(store, {
      flushMs: 5,
      maxBatch: 100,
      maxBuffered: 50,
      maxRetryMs: 10,
      onDropped: (count, total) => drops.push([count, total]),
    });
    state.down = true;
    for (let i = 0; i < 80; i++) ledger.record(row(i));
    expect(ledger.pending).toBe(50);
    expect(ledger.dropped).toBe(30);
    state.down = false;
    await ledger.flush();
    expect(rows.map((r) => r.created_at)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(drops).toEqual([[30, 30]]);
  });

  it('flush() resolves after the rows queued before it are stored', async () => {
    const { store, rows } = flakyStore();
    const ledger = new UsageLedger(store, { flushMs: 60_000 });
    ledger.record(row(1));
    const first = ledger.flush();
    ledger.record(row(2));
    await Promise.all([first, ledger.flush()]);
    expect(rows).toHaveLength(2);
  });
});
