import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { request, useLimiterPairs } from './limiter-pairs.js';

const { server, pair, connect } = useLimiterPairs();

describe('RedisLimiter while Redis is down', () => {
  it('on_error open admits (warning at most once a minute), closed answers 503 limits_unavailable; both recover', async () => {
    const warnings: string[] = [];
    // Only the connection under test reports here: its pair's connection reports its own outage on its own clock.
    const [openRedis] = await pair({ onError: 'open' }, { warn: (m) => warnings.push(m) });
    const [closedRedis] = await pair({ onError: 'closed' });
    const [openLimiter, closedLimiter] = [openRedis.limiter(), closedRedis.limiter()];
    expect(await openLimiter.acquire(request({ rpm: 1 }))).toMatchObject({ ok: true });
    expect(await openLimiter.acquire(request({ rpm: 1 }))).toMatchObject({ ok: false, reason: 'requests' });
    await server.stop();
    try {
      // Counted in this process meanwhile: its share of rpm 1 (rpm / the replicas it last counted, at least 1).
      expect(openRedis.replicas).toBeGreaterThanOrEqual(1);
      expect(await openLimiter.acquire(request({ rpm: 1 }))).toMatchObject({ ok: true, local: true });
      for (let i = 0; i < 4; i++)
        expect(await openLimiter.acquire(request({ rpm: 1 }))).toMatchObject({ ok: false, reason: 'requests' });
      await expect(closedLimiter.acquire(request({ rpm: 1 }))).rejects.toMatchObject({
        status: 503,
        code: 'limits_unavailable',
      });
      expect(warnings.length).toBe(1);
    } finally {
      await server.start();
    }
    // Each poll attempt takes a key of its own: an attempt that reached Redis while the client still counted it as
    // failed (a reconnect under way) must not use up the one request of the key the next attempt checks.
    let attempt = 0;
    let fresh = '';
    await expect
      .poll(
        () =>
          closedLimiter.acquire(request({ keyId: `k-${++attempt}`, rpm: 1 })).then(
            (r) => r.ok,
            (e) => e.code,
          ),
        { timeout: 5_000 },
      )
      .toBe(true);
    await expect
      .poll(
        () =>
          openLimiter
            .acquire(request({ keyId: (fresh = `fresh-${++attempt}`), rpm: 1 }))
            .then((r) => r.ok && !('local' in r && r.local)),
        { timeout: 5_000 },
      )
      .toBe(true);
    expect(await openLimiter.acquire(request({ keyId: fresh, rpm: 1 }))).toMatchObject({
      ok: false,
      reason: 'requests',
    });
    // Redis came back empty less than a minute ago: a key's missing bucket starts from the ledger's last minute.
    expect(await openLimiter.acquire({ keyId: 'seeded', rpm: 2, tpm: null, tokens: 0, budget: null })).toEqual({
      ok: false,
      reason: 'seed',
      what: 'recent',
    });
    expect(
      await openLimiter.acquire(request({ keyId: 'seeded', rpm: 2, recent: { requests: 2, tokens: 0 } })),
    ).toMatchObject({ ok: false, reason: 'requests' });
  });
  it('a settlement batch Redis refused is sent again: the key is usable after, its cost counted once', async () => {
    // Issue #38: a failed batch used to be dropped, leaving its reservation in the budget window for good. Redis out
    // of memory (maxmemory reached, noeviction) refuses every write, the settlement script included, and keeps the data.
    const warnings: string[] = [];
    const keyPrefix = 'refused-batch:';
    const redis = await connect({ onError: 'open', warn: (m) => warnings.push(m) }, keyPrefix);
    const limiter = redis.limiter();
    const admin = new Redis(server.url);
    const budget = (reserveUsd: number) => ({ limitUsd: 1, window: 'total', reserveUsd, seedUsd: 0 });
    try {
      expect(await limiter.acquire(request({ keyId: 'b', budget: budget(0.9) }))).toMatchObject({ ok: true });
      await admin.config('SET', 'maxmemory', '1');
      try {
        await limiter.settle({
          keyId: 'b',
          tpm: null,
          tokensReserved: 0,
          tokensUsed: 0,
          budget: { window: 'total', reservedUsd: 0.9, costUsd: 0.01 },
        });
        expect(warnings.join('\n')).toMatch(/OOM|maxmemory/);
        // Still refused while the reservation of 0.9 holds the window.
        expect(await admin.hget(`${keyPrefix}spend:b:total`, 'r')).toBe('0.9');
      } finally {
        await admin.config('SET', 'maxmemory', '0');
      }
      // Redis takes writes again: the batch is sent again, and the next call of the key fits in the budget.
      await expect
        .poll(async () => Math.abs(Number(await admin.hget(`${keyPrefix}spend:b:total`, 'r'))), { timeout: 5_000 })
        .toBeLessThan(1e-9);
      expect(await limiter.acquire(request({ keyId: 'b', budget: budget(0.9) }))).toMatchObject({ ok: true });
      expect(Number(await admin.hget(`${keyPrefix}spend:b:total`, 's'))).toBeCloseTo(0.01, 9);
    } finally {
      admin.disconnect();
    }
  });

  it('a batch applied whose reply was lost is applied once when sent again (CLIENT PAUSE past the command timeout)', async () => {
    const keyPrefix = 'lost-reply:';
    const redis = await connect({ commandTimeoutMs: 200, onError: 'open', warn: () => {} }, keyPrefix);
    const limiter = redis.limiter();
    const admin = new Redis(server.url);
    try {
      expect(
        await limiter.acquire(
          request({ keyId: 'p', budget: { limitUsd: 1, window: 'total', reserveUsd: 0.5, seedUsd: 0 } }),
        ),
      ).toMatchObject({ ok: true });
      // Writes wait for 600 ms: the settlement times out on the client (200 ms) but runs once the pause ends.
      await admin.call('CLIENT', 'PAUSE', '600', 'WRITE');
      await limiter.settle({
        keyId: 'p',
        tpm: null,
        tokensReserved: 0,
        tokensUsed: 0,
        budget: { window: 'total', reservedUsd: 0.5, costUsd: 0.25 },
      });
      await expect
        .poll(async () => Math.abs(Number(await admin.hget(`${keyPrefix}spend:p:total`, 'r'))), { timeout: 5_000 })
        .toBeLessThan(1e-9);
      // Closing sends every batch still waiting once more: each finds its marker, so the cost is counted once.
      await limiter.close();
      const [spent, reserved] = (await admin.hmget(`${keyPrefix}spend:p:total`, 's', 'r')).map(Number);
      expect(spent).toBeCloseTo(0.25, 9);
      expect(Math.abs(reserved!)).toBeLessThan(1e-9);
    } finally {
      admin.disconnect();
    }
  });
});
