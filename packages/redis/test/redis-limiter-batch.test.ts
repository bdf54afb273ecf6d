import { describe, expect, it } from 'vitest';
import { request, useLimiterPairs } from './limiter-pairs.js';

const { connect } = useLimiterPairs();

describe('RedisLimiter: the admissions of one event-loop turn, in one script call', () => {
  it('are applied in order, each all or nothing: a refused call takes nothing, the next one still fits', async () => {
    const limiter = (await connect()).limiter();
    const call = (tokens: number) => request({ rpm: 10, tpm: 100, tokens });
    // Asked for in one turn, so sent together: 80 tokens fit, 50 more do not, 20 more do.
    const [first, second, third] = await Promise.all([
      limiter.acquire(call(80)),
      limiter.acquire(call(50)),
      limiter.acquire(call(20)),
    ]);
    expect(first).toMatchObject({ ok: true, state: { requestsRemaining: 9, tokensRemaining: 20 } });
    expect(second).toMatchObject({ ok: false, reason: 'tokens', state: { requestsRemaining: 9, tokensRemaining: 20 } });
    expect(third).toMatchObject({ ok: true, state: { requestsRemaining: 8, tokensRemaining: 0 } });
  });

  it("keeps each key's counters and budget window apart, and answers each call with its own key's state", async () => {
    const limiter = (await connect()).limiter();
    const budget = (limitUsd: number, window: string) => ({ limitUsd, window, reserveUsd: 0.4, seedUsd: 0 });
    const [a1, b1, a2, b2, a3] = await Promise.all([
      limiter.acquire(request({ keyId: 'a', rpm: 5, budget: budget(1, 'day:0') })),
      limiter.acquire(request({ keyId: 'b', rpm: 3, budget: budget(0.5, 'day:0') })),
      limiter.acquire(request({ keyId: 'a', rpm: 5, budget: budget(1, 'day:0') })),
      limiter.acquire(request({ keyId: 'b', rpm: 3, budget: budget(0.5, 'day:0') })),
      limiter.acquire(request({ keyId: 'a', rpm: 5, budget: budget(1, 'day:0') })),
    ]);
    expect(a1).toMatchObject({ ok: true, state: { requestsRemaining: 4 } });
    expect(b1).toMatchObject({ ok: true, state: { requestsRemaining: 2 } });
    expect(a2).toMatchObject({ ok: true, state: { requestsRemaining: 3 } });
    // b's 0.4 reserved leaves no room for 0.4 more in 0.5; a's 0.8 reserved none in 1.
    expect(b2).toMatchObject({ ok: false, reason: 'budget', budget: { spentUsd: 0, reservedUsd: 0.4 } });
    expect(a3).toMatchObject({ ok: false, reason: 'budget', budget: { spentUsd: 0, reservedUsd: 0.8 } });
    // The refused calls took no request: each key's next call sees only its admitted ones.
    const [a4, b3] = await Promise.all([
      limiter.acquire(request({ keyId: 'a', rpm: 5, budget: null })),
      limiter.acquire(request({ keyId: 'b', rpm: 3, budget: null })),
    ]);
    expect(a4).toMatchObject({ ok: true, state: { requestsRemaining: 2 } });
    expect(b3).toMatchObject({ ok: true, state: { requestsRemaining: 1 } });
  });

  it('a call whose window is not yet known asks for its seed alone; the others of its batch are decided', async () => {
    const limiter = (await connect()).limiter();
    const [unseeded, seeded] = await Promise.all([
      limiter.acquire(request({ keyId: 'c', budget: { limitUsd: 1, window: 'day:0', reserveUsd: 0.1 } })),
      limiter.acquire(
        request({ keyId: 'd', budget: { limitUsd: 1, window: 'day:0', reserveUsd: 0.1, seedUsd: 0.95 } }),
      ),
    ]);
    expect(unseeded).toEqual({ ok: false, reason: 'seed', what: 'spend' });
    expect(seeded).toMatchObject({ ok: true });
  });
  it("sends a turn's settlements and admissions in one script call, settlements first", async () => {
    const limiter = (await connect()).limiter();
    const call = (tokens: number) => request({ tpm: 100, tokens });
    expect(await limiter.acquire(call(90))).toMatchObject({ ok: true, state: { tokensRemaining: 10 } });
    // In one turn: the 90-token call used 10 (80 go back), and two more calls ask for 50 each.
    const [settled, first, second] = await Promise.all([
      limiter.settle({ keyId: 'k', tpm: 100, tokensReserved: 90, tokensUsed: 10, budget: null }),
      limiter.acquire(call(50)),
      limiter.acquire(call(50)),
    ]);
    expect(settled).toEqual([]);
    expect(first).toMatchObject({ ok: true, state: { tokensRemaining: 40 } });
    expect(second).toMatchObject({ ok: false, reason: 'tokens', state: { tokensRemaining: 40 } });
  });

  it("takes each call's slot whole from its one argument, whatever the slot holds, beside calls that take none", async () => {
    const redis = await connect({}, 'test-slot-argument:');
    const limiter = redis.limiter();
    const odd = 'call;1,2;3';
    const [held, free, refused] = await Promise.all([
      limiter.acquire(request({ rpm: 5, concurrency: { limit: 1, slot: odd } })),
      limiter.acquire(request({ keyId: 'other', rpm: 5 })),
      limiter.acquire(request({ rpm: 5, concurrency: { limit: 1, slot: 'call-2' } })),
    ]);
    expect(held).toMatchObject({ ok: true, state: { requestsRemaining: 4 } });
    expect(free).toMatchObject({ ok: true, state: { requestsRemaining: 4 } });
    expect(refused).toMatchObject({ ok: false, reason: 'concurrency' });
    expect(await redis.client.zrange('test-slot-argument:slots:k', '0', '-1')).toEqual([odd]);
    await limiter.release('k', odd);
    expect(await redis.client.zrange('test-slot-argument:slots:k', '0', '-1')).toEqual([]);
    expect(await limiter.acquire(request({ concurrency: { limit: 1, slot: 'call-3' } }))).toMatchObject({ ok: true });
  });

  it("settles one subject's parts in two budget windows in one batch, each in its own window", async () => {
    const limiter = (await connect()).limiter();
    const budget = (window: string) => ({ limitUsd: 10, window, reserveUsd: 0.5, seedUsd: 0 });
    await Promise.all([
      limiter.acquire(request({ budget: budget('day:0') })),
      limiter.acquire(request({ budget: budget('day:1') })),
    ]);
    const part = (window: string, costUsd: number) => ({
      keyId: 'k',
      tpm: null,
      tokensReserved: 0,
      tokensUsed: 0,
      budget: { window, reservedUsd: 0.25, costUsd },
    });
    const [a, b, c] = await Promise.all([
      limiter.settle(part('day:0', 1)),
      limiter.settle(part('day:1', 2)),
      limiter.settle(part('day:0', 4)),
    ]);
    expect(a).toEqual([{ id: 'k', window: 'day:0', spentUsd: 1, costUsd: 1 }]);
    expect(b).toEqual([{ id: 'k', window: 'day:1', spentUsd: 2, costUsd: 2 }]);
    expect(c).toEqual([{ id: 'k', window: 'day:0', spentUsd: 5, costUsd: 4 }]);
  });
});
