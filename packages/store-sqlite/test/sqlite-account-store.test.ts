import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Accounts } from '@switchyard/accounts';
import { describeAccountStore } from '@switchyard/testkit/account-store';
import Database from 'better-sqlite3';
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
  it('adds price_source to a ledger created before it existed, keeping the old rows', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'switchyard-db-')), 'old.db');
    const old = new Database(path);
    old.exec(`CREATE TABLE usage (request_id TEXT NOT NULL, key_id TEXT NOT NULL, model TEXT NOT NULL, provider TEXT, upstream_model TEXT,
      prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, cost_usd REAL NOT NULL, latency_ms REAL NOT NULL, ttfb_ms REAL,
      status INTEGER NOT NULL, stream INTEGER NOT NULL, created_at INTEGER NOT NULL)`);
    old.prepare("INSERT INTO usage VALUES ('old-1', 'k', 'm', 'openai', 'm', 10, 5, 0.5, 12, 3, 200, 0, 1000)").run();
    old.close();
    const store = new SqliteAccountStore(path);
    await store.appendUsage([{ ...row('k', 'm', 2000, 0), request_id: 'new-1', price_source: 'catalog' }]);
    expect((await store.listUsage({ limit: 10 })).map((r) => [r.request_id, r.price_source])).toEqual([
      ['new-1', 'catalog'],
      ['old-1', null],
    ]);
    await store.close();
  });

  it('adds concurrency_limit to a keys table created before it existed: old keys are unlimited, new ones keep it', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'switchyard-db-')), 'old-keys.db');
    const old = new Database(path);
    old.exec(`CREATE TABLE keys (id TEXT PRIMARY KEY, name TEXT NOT NULL, key_hash TEXT NOT NULL UNIQUE, key_prefix TEXT NOT NULL, models TEXT,
      rpm_limit INTEGER, tpm_limit INTEGER, budget_usd REAL, budget_period TEXT NOT NULL, expires_at TEXT, metadata TEXT, created_at TEXT NOT NULL,
      revoked_at TEXT)`);
    old
      .prepare(
        "INSERT INTO keys VALUES ('key_old', 'old', 'abc', 'sk-sy-abc…', NULL, 5, NULL, NULL, 'total', NULL, NULL, '2026-01-01T00:00:00.000Z', NULL)",
      )
      .run();
    old.close();
    const accounts = await Accounts.open({ store: new SqliteAccountStore(path), staticKeys: [] });
    expect(accounts.keys.get('key_old')).toMatchObject({ rpm_limit: 5, concurrency_limit: null });
    const created = await accounts.keys.create({ name: 'new', concurrency_limit: 4 });
    await accounts.keys.update('key_old', { concurrency_limit: 2 });
    await accounts.close();
    const reopened = await Accounts.open({ store: new SqliteAccountStore(path), staticKeys: [] });
    expect(reopened.keys.get(created.id)).toMatchObject({ concurrency_limit: 4 });
    expect(reopened.keys.get('key_old')).toMatchObject({ concurrency_limit: 2 });
    await reopened.close();
  });

  it('keeps the audit log append-only: UPDATE and DELETE on the audit table are refused', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'switchyard-db-')), 'audit.db');
    const store = new SqliteAccountStore(path);
    await store.appendAudit({
      id: 'aud_1',
      created_at: 1,
      actor: 'master_key',
      action: 'key.create',
      target: 'key_1',
      source_address: null,
      before: null,
      after: { name: 'a' },
    });
    await store.close();
    const db = new Database(path);
    expect(() => db.exec("UPDATE audit SET actor = 'someone else'")).toThrow(/append-only/);
    expect(() => db.exec('DELETE FROM audit')).toThrow(/append-only/);
    expect(db.prepare('SELECT actor FROM audit').all()).toEqual([{ actor: 'master_key' }]);
    db.close();
  });

  it('stores key hashes, never the secret, and survives a reopen', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'switchyard-db-')), 'accounts.db');
    const accounts = await Accounts.open({ store: new SqliteAccountStore(path), staticKeys: [] });
    const created = await accounts.keys.create({
      name: 'team-a',
      models: ['gpt-*'],
      rpm_limit: 10,
      budget_usd: 5,
      budget_period: 'month',
      metadata: { team: 'a' },
    });
    await accounts.keys.revoke((await accounts.keys.create({ name: 'old' })).id);
    await accounts.close();
    const bytes = await readFile(path);
    expect(bytes.includes(Buffer.from(created.key))).toBe(false);
    expect(bytes.includes(Buffer.from(created.key.slice(6)))).toBe(false);
    const reopened = await Accounts.open({ store: new SqliteAccountStore(path), staticKeys: [] });
    expect(reopened.authenticate(`Bearer ${created.key}`)).toMatchObject({ kind: 'virtual' });
    expect(reopened.keys.get(created.id)).toMatchObject({
      name: 'team-a',
      models: ['gpt-*'],
      rpm_limit: 10,
      budget_usd: 5,
      budget_period: 'month',
      metadata: { team: 'a' },
    });
    expect(reopened.keys.list().find((k) => k.name === 'old')?.revoked_at).toEqual(expect.any(String));
    await reopened.close();
  });

  it('totals usage by key, model and day, with filters', async () => {
    const store = new SqliteAccountStore(':memory:');
    const day = Date.UTC(2026, 10, 20);
    await store.appendUsage([row('k1', 'a', day, 0.5), row('k1', 'b', day + 86_400_000, 0.25), row('k2', 'a', day, 1)]);
    expect(await store.usageTotals({})).toEqual([
      { requests: 3, prompt_tokens: 30, completion_tokens: 15, total_tokens: 45, cost_usd: 1.75, cache_hits: 0 },
    ]);
    expect((await store.usageTotals({}, 'key')).map((t) => [t.group, t.requests, t.cost_usd])).toEqual([
      ['k1', 2, 0.75],
      ['k2', 1, 1],
    ]);
    expect((await store.usageTotals({ key_id: 'k1' }, 'day')).map((t) => t.group)).toEqual([
      '2026-11-20',
      '2026-11-21',
    ]);
    expect(
      (await store.usageTotals({ model: 'a', from: day, to: day + 1 }, 'model')).map((t) => [t.group, t.requests]),
    ).toEqual([['a', 2]]);
    expect(await store.spendSince('k1', day + 1)).toBe(0.25);
    await store.close();
  });
});

const dir = await mkdtemp(join(tmpdir(), 'switchyard-sqlite-suite-'));
describeAccountStore('SQLite', { open: async (name) => new SqliteAccountStore(join(dir, `${name}.db`)) });
