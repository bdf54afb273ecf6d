import { describe, expect, it } from 'vitest';
import { request, useLimiterPairs } from './limiter-pairs.js';

const { pair } = useLimiterPairs();

describe('RedisLimiter (real redis-server)', () => {
  it('admits exactly rpm_limit of 60 concurrent checks spread over two replicas', async () => {
    const [a, b] = await pair();
    const [la, lb] = [a.limiter(), b.limiter()];
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? la : lb).acquire(request({ rpm: 20 }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    const refused = results.find((r) => !r.ok);
    expect(refused).toMatchObject({ ok: false, reason: 'requests', state: { requestsRemaining: 0 } });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
  });

  it("a team's rpm over two keys on two replicas: exactly the team's limit of 60 concurrent checks, refusals naming the team", async () => {
    const [a, b] = await pair();
    const [la, lb] = [a.limiter(), b.limiter()];
    const team = { id: 'team:t1', rpm: 15, tpm: null, concurrency: null, budget: null };
    // A Redis that began counting under a minute ago asks for the team's last minute too (the ledger's), once.
    expect(await la.acquire(request({ keyId: 'k1', rpm: 100, scopes: [team] }))).toEqual({
      ok: false,
      reason: 'seed',
      what: 'recent',
      scope: 'team:t1',
    });
    Object.assign(team, { recent: { requests: 0, tokens: 0 } });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? la : lb).acquire(request({ keyId: i % 3 ? 'k1' : 'k2', rpm: 100, scopes: [team] })),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(15);
    expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, reason: 'requests', scope: 'team:t1' });
    // The keys' own buckets were not taken by refused calls: k1 took only its admitted calls.
    const k1 = await la.acquire(request({ keyId: 'k1', rpm: 100 }));
    expect(k1.ok && k1.state.requestsRemaining).toBeGreaterThanOrEqual(100 - 15 - 1);
  });

  it("a team's budget: seeded per scope, reserved and settled with the key's, spend after each settlement returned", async () => {
    const [a, b] = await pair();
    const [la, lb] = [a.limiter(), b.limiter()];
    const teamBudget = { limitUsd: 1, window: 'month:0', reserveUsd: 0.3 };
    const call = (keyId: string, seedUsd?: number) =>
      request({
        keyId,
        budget: null,
        scopes: [
          {
            id: 'team:t2',
            rpm: null,
            tpm: null,
            concurrency: 2,
            budget: { ...teamBudget, ...(seedUsd !== undefined && { seedUsd }) },
          },
        ],
        slot: `${keyId}-${Math.random()}`,
      });
    expect(await la.acquire(call('k1'))).toEqual({ ok: false, reason: 'seed', what: 'spend', scope: 'team:t2' });
    expect(await la.acquire(call('k1', 0.5))).toMatchObject({ ok: true });
    // 0.5 spent + 0.3 reserved + 0.3 > 1: refused on the other replica, for another key of the team.
    expect(await lb.acquire(call('k2'))).toMatchObject({
      ok: false,
      reason: 'budget',
      scope: 'team:t2',
      budget: { spentUsd: 0.5, reservedUsd: 0.3 },
    });
    const settled = await la.settle({
      keyId: 'k1',
      tpm: null,
      tokensReserved: 0,
      tokensUsed: 0,
      budget: null,
      scopes: [
        {
          id: 'team:t2',
          tpm: null,
          tokensReserved: 0,
          tokensUsed: 0,
          budget: { window: 'month:0', reservedUsd: 0.3, costUsd: 0.25 },
        },
      ],
    });
    expect(settled).toEqual([{ id: 'team:t2', window: 'month:0', spentUsd: 0.75, costUsd: 0.25 }]);
    const second = call('k2');
    expect(await lb.acquire(second)).toMatchObject({ ok: true });
    const third = call('k3');
    third.scopes = [{ ...third.scopes![0]!, budget: { ...teamBudget, reserveUsd: 0 } }];
    // Two slots of the team's concurrency limit: k1's call still holds one, k2's the other.
    expect(await la.acquire(third)).toMatchObject({ ok: false, reason: 'concurrency', scope: 'team:t2' });
    await lb.release('k2', second.slot!, ['team:t2']);
    // The slot is free; the budget now refuses (0.75 spent + 0.3 reserved by k2's call in flight > 1) until it settles.
    expect(await la.acquire(third)).toMatchObject({ ok: false, reason: 'budget', scope: 'team:t2' });
    await lb.settle({
      keyId: 'k2',
      tpm: null,
      tokensReserved: 0,
      tokensUsed: 0,
      budget: null,
      scopes: [
        {
          id: 'team:t2',
          tpm: null,
          tokensReserved: 0,
          tokensUsed: 0,
          budget: { window: 'month:0', reservedUsd: 0.3, costUsd: 0 },
        },
      ],
    });
    expect(await la.acquire(third)).toMatchObject({ ok: true });
  });

  it('reserves tokens and settles them against actual use, shared by both replicas', async () => {
    const [a, b] = await pair();
    const [la, lb] = [a.limiter(), b.limiter()];
    expect(await la.acquire(request({ tpm: 1000, tokens: 600 }))).toMatchObject({
      ok: true,
      state: { tokensRemaining: 400 },
    });
    expect(await lb.acquire(request({ tpm: 1000, tokens: 600 }))).toMatchObject({ ok: false, reason: 'tokens' });
    await la.settle({ keyId: 'k', tpm: 1000, tokensReserved: 600, tokensUsed: 100, budget: null });
    await la.flush();
    expect(await lb.acquire(request({ tpm: 1000, tokens: 600 }))).toMatchObject({ ok: true });
  });

  it('asks for the spend of an unknown budget window, then counts spend plus reservations', async () => {
    const [a, b] = await pair();
    const [la, lb] = [a.limiter(), b.limiter()];
    const budget = { limitUsd: 1, window: 'month:0', reserveUsd: 0.4 };
    expect(await la.acquire(request({ budget }))).toEqual({ ok: false, reason: 'seed', what: 'spend' });
    expect(await la.acquire(request({ budget: { ...budget, seedUsd: 0.5 } }))).toMatchObject({ ok: true });
    // With 0.4 reserved in flight, an estimate must fit in what is left: 0.5 + 0.4 + 0.4 > 1, 0.5 + 0.4 + 0.1 <= 1.
    expect(await lb.acquire(request({ budget }))).toMatchObject({
      ok: false,
      reason: 'budget',
      budget: { spentUsd: 0.5, reservedUsd: 0.4 },
    });
    expect(await lb.acquire(request({ budget: { ...budget, reserveUsd: 0.1 } }))).toMatchObject({ ok: true });
    // Both settle (one batch, written when the settle calls resolve): 0.52 spent, nothing reserved.
    await Promise.all([
      lb.settle({
        keyId: 'k',
        tpm: null,
        tokensReserved: 0,
        tokensUsed: 0,
        budget: { window: 'month:0', reservedUsd: 0.4, costUsd: 0.01 },
      }),
      lb.settle({
        keyId: 'k',
        tpm: null,
        tokensReserved: 0,
        tokensUsed: 0,
        budget: { window: 'month:0', reservedUsd: 0.1, costUsd: 0.01 },
      }),
    ]);
    expect(await la.acquire(request({ budget }))).toMatchObject({ ok: true }); // 0.52 < 1, nothing in flight
    expect(await la.acquire(request({ budget: { ...budget, reserveUsd: 0.5 } }))).toMatchObject({
      ok: false,
      reason: 'budget',
      budget: { spentUsd: 0.52 },
    });
  });

  it('concurrency_limit 3: of 20 concurrent checks over two replicas 3 take a slot; a released slot is free at once', async () => {
    const [a, b] = await pair();
    const [la, lb] = [a.limiter(), b.limiter()];
    const slot = (i: number) => ({ limit: 3, slot: `call-${i}` });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? la : lb).acquire(request({ concurrency: slot(i) }))),
    );
    const held = results.flatMap((r, i) => (r.ok ? [i] : []));
    expect(held).toHaveLength(3);
    expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, reason: 'concurrency', retryAfterMs: 1000 });
    // Nothing else was taken by a refused check: an rpm bucket of the same key still has all its requests.
    expect(await la.acquire(request({ rpm: 5, concurrency: slot(99) }))).toMatchObject({
      ok: false,
      reason: 'concurrency',
    });
    const first = held[0]!;
    await (first % 2 ? la : lb).release('k', `call-${first}`);
    expect(await lb.acquire(request({ rpm: 5, concurrency: slot(100) }))).toMatchObject({
      ok: true,
      state: { requestsRemaining: 4 },
    });
    expect(await la.acquire(request({ concurrency: slot(101) }))).toMatchObject({ ok: false, reason: 'concurrency' });
    // Releasing a slot this replica does not hold (or twice) changes nothing.
    await la.release('k', 'call-unknown');
    await lb.release('k', 'call-100');
    await lb.release('k', 'call-100');
    expect(await la.acquire(request({ concurrency: slot(102) }))).toMatchObject({ ok: true });
    expect(await la.acquire(request({ concurrency: slot(103) }))).toMatchObject({ ok: false, reason: 'concurrency' });
  });

  it("slots of calls in flight are refreshed; a dead replica's slots expire after the slot TTL", async () => {
    const [a, b] = await pair();
    // 1 s: the holder refreshes every TTL / 3, so a refresh may come up to 2/3 TTL late before the slot lapses (with
    // 300 ms, a timer 200 ms late on a loaded machine freed the slot of a call still in flight).
    const TTL = 1_000;
    const [la, lb] = [a.limiter({ slotTtlMs: TTL }), b.limiter({ slotTtlMs: TTL })];
    const concurrency = (slot: string) => ({ limit: 1, slot });
    expect(await la.acquire(request({ concurrency: concurrency('long-stream') }))).toMatchObject({ ok: true });
    // The holder refreshes its slot every TTL / 3: for three TTLs, the other replica finds no free slot.
    const until = Date.now() + 3 * TTL;
    while (Date.now() < until) {
      expect(await lb.acquire(request({ concurrency: concurrency('other') }))).toMatchObject({
        ok: false,
        reason: 'concurrency',
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The holder dies without releasing (its connection and timers are gone): the slot expires by itself.
    await la.close();
    a.client.disconnect();
    const died = Date.now();
    await expect
      .poll(async () => (await lb.acquire(request({ concurrency: concurrency('other') }))).ok, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe(true);
    expect(Date.now() - died).toBeLessThan(TTL + 1_000);
  });

  it('broadcasts key changes and breaker state to every replica', async () => {
    const [a, b] = await pair();
    const keys: (string | undefined)[] = [];
    const breakers: [string, number][] = [];
    b.subscribe((id) => keys.push(id));
    b.subscribeCooldown((key, until) => breakers.push([key, until]));
    await expect
      .poll(async () => {
        await a.publish('key_1');
        return keys.includes('key_1');
      })
      .toBe(true);
    a.publishCooldown('openai/gpt-4o', 123);
    await expect.poll(() => breakers).toContainEqual(['openai/gpt-4o', 123]);
  });
});
