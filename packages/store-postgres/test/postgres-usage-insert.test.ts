import type { UsageRow } from '@switchyard/accounts';
import { startPostgres } from '@switchyard/testkit/servers';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresAccountStore } from '../src/index.js';

const postgres = await startPostgres();
afterAll(() => postgres.close());

const row = (request_id: string, overrides: Partial<UsageRow> = {}): UsageRow => ({
  request_id,
  key_id: 'k1',
  model: 'm',
  provider: null,
  upstream_model: null,
  prompt_tokens: 10,
  completion_tokens: 5,
  cost_usd: 0.25,
  latency_ms: 12.5,
  ttfb_ms: null,
  status: 200,
  stream: false,
  created_at: Date.UTC(2026, 10, 27),
  ...overrides,
});

describe('Postgres ledger batches (one JSON parameter)', () => {
  it('keep every row of two stores appending at once, and a retried batch once (row ids unique per row)', async () => {
    await postgres.createDatabase('usage_insert_ids');
    const url = postgres.url('usage_insert_ids');
    const [a, b] = await Promise.all([
      PostgresAccountStore.open({ connectionString: url }),
      PostgresAccountStore.open({ connectionString: url }),
    ]);
    const batch = (store: string, n: number) => Array.from({ length: n }, (_, i) => row(`${store}-${i}`));
    const fromA = batch('a', 300);
    await Promise.all([a.appendUsage(fromA), b.appendUsage(batch('b', 300)), a.appendUsage(batch('a2', 300))]);
    await a.appendUsage(fromA);
    const [totals] = await a.usageTotals({});
    expect(totals?.requests).toBe(900);
    await Promise.all([a.close(), b.close()]);
  });

  it('store what a client sent as pg stored it: a lone surrogate as U+FFFD, escapes and quotes as written', async () => {
    await postgres.createDatabase('usage_insert_text');
    const store = await PostgresAccountStore.open({ connectionString: postgres.url('usage_insert_text') });
    await store.appendUsage([
      row('r1', { model: 'gpt-\ud800x', end_user: 'a\udc00', session_id: '\ud83d\ude00 ok' }),
      row('r2', { model: String.raw`back\slash \ud800 "quoted" \n`, end_user: 'tab\tline\nnul-free' }),
    ]);
    const rows = await store.listUsage({ limit: 10 });
    const byId = new Map(rows.map((r) => [r.request_id, r]));
    expect(byId.get('r1')).toMatchObject({ model: 'gpt-\ufffdx', end_user: 'a\ufffd', session_id: '\ud83d\ude00 ok' });
    expect(byId.get('r2')).toMatchObject({
      model: String.raw`back\slash \ud800 "quoted" \n`,
      end_user: 'tab\tline\nnul-free',
    });
    await store.close();
  });

  it('store the optional columns with their defaults, and NaN and infinite timings as float8 holds them', async () => {
    await postgres.createDatabase('usage_insert_numbers');
    const store = await PostgresAccountStore.open({ connectionString: postgres.url('usage_insert_numbers') });
    await store.appendUsage([row('r1'), row('r2', { latency_ms: Number.NaN, ttfb_ms: Number.POSITIVE_INFINITY })]);
    const byId = new Map((await store.listUsage({ limit: 10 })).map((r) => [r.request_id, r]));
    expect(byId.get('r1')).toMatchObject({
      attempts: 1,
      usage_estimated: false,
      cache_hit: false,
      hedged: false,
      stream_failover: false,
      cost_usd: 0.25,
      latency_ms: 12.5,
      ttfb_ms: null,
      created_at: Date.UTC(2026, 10, 27),
    });
    expect(byId.get('r2')?.latency_ms).toBeNaN();
    expect(byId.get('r2')?.ttfb_ms).toBe(Number.POSITIVE_INFINITY);
    await store.close();
  });
});
