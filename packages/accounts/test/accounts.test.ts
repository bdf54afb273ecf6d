import { describe, expect, it } from 'vitest';
import { Accounts, computeCostUsd, matchesModelGlob, TokenBucket } from '../src/index.js';
import { memoryStore } from './memory-store.js';

const usage = (prompt: number, completion: number, cost: number) => ({
  request_id: 'r',
  model: 'gpt-4o',
  provider: 'openai',
  upstream_model: 'gpt-4o',
  prompt_tokens: prompt,
  completion_tokens: completion,
  cost_usd: cost,
  latency_ms: 1,
  ttfb_ms: 1,
  status: 200,
  stream: false,
  created_at: Date.now(),
});

describe('Accounts', () => {
  it('authenticates static and virtual keys; revoked and expired keys get 401 at once', async () => {
    const accounts = await Accounts.open({ store: memoryStore(), staticKeys: ['sk-static-key-0123456789'] });
    expect(accounts.authenticate('Bearer sk-static-key-0123456789')).toEqual({ kind: 'static' });
    const key = await accounts.keys.create({ name: 'a' });
    expect(key.key).toMatch(/^sk-sy-/);
    expect((await accounts.authenticate(`Bearer ${key.key}`)).kind).toBe('virtual');
    await accounts.keys.revoke(key.id);
    expect(() => accounts.authenticate(`Bearer ${key.key}`)).toThrow(
      expect.objectContaining({ status: 401, message: 'This API key has been revoked.' }),
    );
    const expired = await accounts.keys.create({ name: 'b', expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(() => accounts.authenticate(`Bearer ${expired.key}`)).toThrow(expect.objectContaining({ status: 401 }));
    expect(() => accounts.authenticate('Bearer sk-sy-made-up')).toThrow(expect.objectContaining({ status: 401 }));
  });

  it('looks a key another replica created up in the store before a 401, at most perMinute times per client address', async () => {
    const store = memoryStore();
    const [a, b] = await Promise.all([
      Accounts.open({ store, staticKeys: [] }),
      Accounts.open({ store, staticKeys: [], keyLookups: { perMinute: 2 } }),
    ]);
    const created = await a.keys.create({ name: 'fresh' });
    // b has not heard of it (no key change feed): the store answers, once.
    const looked = b.authenticate(`Bearer ${created.key}`, '10.0.0.1');
    expect(looked).toBeInstanceOf(Promise);
    expect(await looked).toMatchObject({ kind: 'virtual', state: { key: { id: created.id } } });
    expect(b.authenticate(`Bearer ${created.key}`, '10.0.0.1')).toMatchObject({ kind: 'virtual' }); // now in memory
    // Guessed keys: one look-up left for 10.0.0.1, then 401 at once; another address has its own bucket.
    const guess = () => `Bearer sk-sy-${'x'.repeat(32)}`;
    await expect(b.authenticate(guess(), '10.0.0.1')).rejects.toMatchObject({ status: 401 });
    expect(() => b.authenticate(guess(), '10.0.0.1')).toThrow(expect.objectContaining({ status: 401 }));
    await expect(b.authenticate(guess(), '10.0.0.2')).rejects.toMatchObject({ status: 401 });
  });

  it('never admits more than rpm_limit requests, however many arrive at once', async () => {
    const accounts = await Accounts.open({ store: memoryStore(), staticKeys: [] });
    const key = await accounts.keys.create({ name: 'a', rpm_limit: 5 });
    const principal = await accounts.authenticate(`Bearer ${key.key}`);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, async () => accounts.admit(principal, 'gpt-4o', 1)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      headers: { 'x-ratelimit-limit-requests': '5', 'x-ratelimit-remaining-requests': '0' },
    });
  });

  it('admits at most concurrency_limit calls in flight; release frees a slot, and a PATCH applies at once', async () => {
    const accounts = await Accounts.open({ store: memoryStore(), staticKeys: [] });
    const key = await accounts.keys.create({ name: 'a', concurrency_limit: 2, rpm_limit: 100 });
    expect(accounts.keys.get(key.id)).toMatchObject({ concurrency_limit: 2 });
    const principal = await accounts.authenticate(`Bearer ${key.key}`);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, async () => accounts.admit(principal, 'gpt-4o', 1)),
    );
    const admitted = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(admitted).toHaveLength(2);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({
      status: 429,
      code: 'concurrency_limit_exceeded',
      type: 'requests',
      headers: { 'retry-after': '1', 'x-ratelimit-remaining-requests': '98' },
    });
    accounts.release(principal, admitted[0]!);
    accounts.release(principal, admitted[0]!); // twice: still one slot given back
    const third = await accounts.admit(principal, 'gpt-4o', 1);
    await expect(accounts.admit(principal, 'gpt-4o', 1)).rejects.toMatchObject({ code: 'concurrency_limit_exceeded' });
    await accounts.keys.update(key.id, { concurrency_limit: 3 });
    await accounts.admit(principal, 'gpt-4o', 1);
    accounts.release(principal, third);
    await accounts.keys.update(key.id, { concurrency_limit: null });
    await Promise.all(Array.from({ length: 5 }, () => accounts.admit(principal, 'gpt-4o', 1)));
  });

  it('enforces tokens per minute from the estimate, then from actual usage', async () => {
    const accounts = await Accounts.open({ store: memoryStore(), staticKeys: [] });
    const key = await accounts.keys.create({ name: 'a', tpm_limit: 100 });
    const principal = await accounts.authenticate(`Bearer ${key.key}`);
    const admission = await accounts.admit(principal, 'gpt-4o', 10);
    accounts.settle(principal, admission, usage(60, 60, 0));
    await expect
      .poll(() =>
        accounts.admit(principal, 'gpt-4o', 10).then(
          () => 'admitted',
          (e) => e,
        ),
      )
      .toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });

  it('blocks the next call once the budget is spent, and only allowed models', async () => {
    const store = memoryStore();
    const accounts = await Accounts.open({ store, staticKeys: [] });
    const key = await accounts.keys.create({ name: 'a', budget_usd: 0.01, models: ['gpt-4o*'] });
    const principal = await accounts.authenticate(`Bearer ${key.key}`);
    await expect(accounts.admit(principal, 'claude', 1)).rejects.toMatchObject({ status: 403 });
    accounts.settle(principal, await accounts.admit(principal, 'gpt-4o-mini', 1), usage(1000, 1000, 0.012));
    await expect
      .poll(() =>
        accounts.admit(principal, 'gpt-4o', 1).then(
          () => 'admitted',
          (e) => e,
        ),
      )
      .toMatchObject({ status: 429, code: 'insufficient_quota' });
    await accounts.ledger.flush();
    expect(store.rows).toHaveLength(1);
    const reopened = await Accounts.open({ store, staticKeys: [] });
    await expect(reopened.admit(await reopened.authenticate(`Bearer ${key.key}`), 'gpt-4o', 1)).rejects.toMatchObject({
      code: 'insufficient_quota',
    });
  });

  it('checks the master key in constant time', async () => {
    const accounts = await Accounts.open({ store: memoryStore(), staticKeys: [], masterKey: 'sk-master-0123456789' });
    expect(accounts.isMaster('Bearer sk-master-0123456789')).toBe(true);
    expect(accounts.isMaster('Bearer sk-master-012345678')).toBe(false);
    expect(accounts.isMaster(undefined)).toBe(false);
  });
});

describe('helpers', () => {
  it('computes cost from USD per million tokens', () => {
    expect(computeCostUsd({ input: 0.15, output: 0.6 }, 1_000_000, 500_000)).toBeCloseTo(0.45);
    expect(computeCostUsd(undefined, 10, 10)).toBe(0);
  });

  it('prices cache reads, cache writes and reasoning tokens at their own prices, defaulting to input/output', () => {
    const price = { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75, reasoning: 20 };
    const details = {
      prompt_tokens_details: { cached_tokens: 600_000, cache_write_tokens: 200_000 },
      completion_tokens_details: { reasoning_tokens: 100_000 },
    };
    // 200k uncached * 3 + 600k * 0.3 + 200k * 3.75 = 0.6 + 0.18 + 0.75; 400k * 15 + 100k * 20 = 6 + 2
    expect(computeCostUsd(price, 1_000_000, 500_000, details)).toBeCloseTo(9.53);
    expect(computeCostUsd({ input: 3, output: 15 }, 1_000_000, 500_000, details)).toBeCloseTo(10.5);
  });

  it('matches model globs', () => {
    expect(matchesModelGlob('anthropic/claude-3', ['anthropic/*'])).toBe(true);
    expect(matchesModelGlob('gpt-4o', ['gpt-4o-*'])).toBe(false);
  });

  it('refills a token bucket over its window', () => {
    let now = 0;
    const bucket = new TokenBucket(60, 60_000, () => now);
    for (let i = 0; i < 60; i++) expect(bucket.tryTake(1)).toBe(true);
    expect(bucket.tryTake(1)).toBe(false);
    expect(bucket.msUntil(1)).toBe(1000);
    now = 1000;
    expect(bucket.tryTake(1)).toBe(true);
  });
});
