import { describe, expect, it } from 'vitest';
import { type LimitRequest, MemoryLimiter } from '../src/index.js';

const request = (overrides: Partial<LimitRequest> = {}): LimitRequest => ({
  keyId: 'k',
  rpm: null,
  tpm: null,
  tokens: 0,
  budget: null,
  ...overrides,
});

describe('MemoryLimiter scopes (team, end user, session)', () => {
  it('takes from the key and its scopes all or nothing: a refusal by the team takes nothing from the key', async () => {
    const limiter = new MemoryLimiter();
    const team = { id: 'team:t', rpm: 2, tpm: null, concurrency: null, budget: null };
    expect(await limiter.acquire(request({ keyId: 'a', rpm: 3, scopes: [team] }))).toMatchObject({
      ok: true,
      state: { requestsRemaining: 2 },
    });
    expect(await limiter.acquire(request({ keyId: 'b', scopes: [team] }))).toMatchObject({ ok: true });
    expect(await limiter.acquire(request({ keyId: 'a', rpm: 3, scopes: [team] }))).toMatchObject({
      ok: false,
      reason: 'requests',
      scope: 'team:t',
    });
    // Key a still has 2 of its 3 requests: the refused call took none.
    expect(await limiter.acquire(request({ keyId: 'a', rpm: 3 }))).toMatchObject({
      ok: true,
      state: { requestsRemaining: 1 },
    });
  });

  it("asks for each scope's seed, holds one slot per scope, and returns each window's spend after a settlement", async () => {
    const limiter = new MemoryLimiter();
    const budget = { limitUsd: 1, window: 'total:0', reserveUsd: 0.4 };
    const call = request({
      keyId: 'a',
      scopes: [{ id: 'team:t', rpm: null, tpm: null, concurrency: 1, budget }],
      slot: 's1',
    });
    expect(await limiter.acquire(call)).toEqual({ ok: false, reason: 'seed', scope: 'team:t' });
    call.scopes![0]!.budget!.seedUsd = 0.25;
    expect(await limiter.acquire(call)).toMatchObject({ ok: true });
    const other = request({
      keyId: 'b',
      scopes: [{ id: 'team:t', rpm: null, tpm: null, concurrency: 1, budget: { ...budget } }],
      slot: 's2',
    });
    expect(await limiter.acquire(other)).toMatchObject({ ok: false, reason: 'concurrency', scope: 'team:t' });
    await limiter.release('a', 's1', ['team:t']);
    const settled = await limiter.settle({
      keyId: 'a',
      tpm: null,
      tokensReserved: 0,
      tokensUsed: 0,
      budget: null,
      scopes: [
        {
          id: 'team:t',
          tpm: null,
          tokensReserved: 0,
          tokensUsed: 0,
          budget: { window: 'total:0', reservedUsd: 0.4, costUsd: 0.5 },
        },
      ],
    });
    expect(settled).toEqual([{ id: 'team:t', window: 'total:0', spentUsd: 0.75, costUsd: 0.5 }]);
    expect(await limiter.acquire(other)).toMatchObject({ ok: true });
  });

  it('holds at most maxEvictable end-user counters however many ids clients send; a forgotten budget is seeded again', async () => {
    const limiter = new MemoryLimiter(Date.now, { maxEvictable: 100 });
    for (let i = 0; i < 5_000; i++) {
      const decision = await limiter.acquire(
        request({
          keyId: 'k',
          scopes: [{ id: `key:k:user:u${i}`, rpm: 5, tpm: null, concurrency: null, budget: null, evictable: true }],
        }),
      );
      expect(decision.ok).toBe(true);
    }
    expect(limiter.evictableCount).toBe(100);
    const budget = { limitUsd: 1, window: 'total:0', reserveUsd: 0 };
    const user0 = () =>
      request({
        keyId: 'k',
        scopes: [
          { id: 'key:k:user:u0', rpm: null, tpm: null, concurrency: null, budget: { ...budget }, evictable: true },
        ],
      });
    expect(await limiter.acquire(user0())).toEqual({ ok: false, reason: 'seed', scope: 'key:k:user:u0' });
  });
});
