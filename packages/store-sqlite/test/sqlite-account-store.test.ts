import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Accounts } from '@switchyard/accounts';
import { describeAccountStore } from '@switchyard/testkit/account-store';
import { describe, expect, it } from 'vitest';
import { SqliteAccountStore } from '../src/index.js';

const row = (key_id: string, model: string, created_at: number, cost_usd: number) => ({
  request_id: `r-${Math.random()}`,
  key_id,
  model,
  provider: 'openai',
  upstream_model: model,
  prompt_tokens: 10,
  completion_tokens: 5,
  cost_usd,
  latency_ms: 12,
  ttfb_ms: 3,
  status: 200,
  stream: false,
  created_at,
});

describe('SqliteAccountStore', () => {
  it('stores key hashes, never the secret, and survives a reopen', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'switchyard-db-')), 'accounts.db');
    const accounts = await Accounts.open({ store: new SqliteAccountStore(path), staticKeys: [] });
    const created = await accounts.createKey({ name: 'team-a', models: ['gpt-*'], rpm_limit: 10, budget_usd: 5, budget_period: 'month', metadata: { team: 'a' } });
    await accounts.revokeKey((await accounts.createKey({ name: 'old' })).id);
    await accounts.close();
    const bytes = await readFile(path);
    expect(bytes.includes(Buffer.from(created.key))).toBe(false);
    expect(bytes.includes(Buffer.from(created.key.slice(6)))).toBe(false);
    const reopened = await Accounts.open({ store: new SqliteAccountStore(path), staticKeys: [] });
    expect(reopened.authenticate(`Bearer ${created.key}`)).toMatchObject({ kind: 'virtual' });
    expect(reopened.getKey(created.id)).toMatchObject({ name: 'team-a', models: ['gpt-*'], rpm_limit: 10, budget_usd: 5, budget_period: 'month', metadata: { team: 'a' } });
    expect(reopened.listKeys().find((k) => k.name === 'old')?.revoked_at).toEqual(expect.any(String));
    await reopened.close();
  });

  it('totals usage by key, model and day, with filters', async () => {
    const store = new SqliteAccountStore(':memory:');
    const day = Date.UTC(2026, 10, 20);
    await store.appendUsage([row('k1', 'a', day, 0.5), row('k1', 'b', day + 86_400_000, 0.25), row('k2', 'a', day, 1)]);
    expect(await store.usageTotals({})).toEqual([{ requests: 3, prompt_tokens: 30, completion_tokens: 15, total_tokens: 45, cost_usd: 1.75 }]);
    expect((await store.usageTotals({}, 'key')).map((t) => [t.group, t.requests, t.cost_usd])).toEqual([
      ['k1', 2, 0.75],
      ['k2', 1, 1],
    ]);
    expect((await store.usageTotals({ key_id: 'k1' }, 'day')).map((t) => t.group)).toEqual(['2026-11-20', '2026-11-21']);
    expect((await store.usageTotals({ model: 'a', from: day, to: day + 1 }, 'model')).map((t) => [t.group, t.requests])).toEqual([['a', 2]]);
    expect(await store.spendSince('k1', day + 1)).toBe(0.25);
    await store.close();
  });
});

const dir = await mkdtemp(join(tmpdir(), 'switchyard-sqlite-suite-'));
describeAccountStore('SQLite', { open: async (name) => new SqliteAccountStore(join(dir, `${name}.db`)) });
