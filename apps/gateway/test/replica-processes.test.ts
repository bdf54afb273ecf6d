import { type MockUpstream, startMockUpstream } from '@switchyard/testkit';
import { startPostgres, startRedis, type TestPostgres, type TestRedis } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletion } from './helpers/chat-completion.js';
import { waitUntilReady } from './helpers/readiness.js';
import {
  heldChatRoute,
  masterKeyAdmin,
  outcomeOf,
  replicaYaml,
  reusableGate,
  spawnReplicas,
} from './helpers/replicas.js';
import type { SpawnedGateway } from './helpers/spawn-gateway.js';

// Two `switchyard start` processes (the built CLI) sharing one real redis-server and one real Postgres (issue #13):
// rpm, tpm, budget and key changes hold across both, the usage report of either shows both, and both ride out Redis
// and Postgres outages; so does a key's concurrency_limit. Replica A runs `redis.on_error: open`, replica B `closed`.
const MASTER = 'sk-master-key-for-replica-processes-0123';
const MAX_TOKENS = 1000;
const answer = chatCompletion('gpt-4o', 8, MAX_TOKENS);

let redis: TestRedis;
let postgres: TestPostgres;
let databaseUrl: string;
let upstream: MockUpstream;
let a: SpawnedGateway;
let b: SpawnedGateway;

/** Upstream calls whose prompt is `hold` wait until the test opens the gate. */
const held = reusableGate();

const yaml = (onError: 'open' | 'closed') =>
  replicaYaml({
    masterKey: MASTER,
    upstreamUrl: upstream.url,
    storeTimeoutMs: 1000,
    redis: { url: redis.url, onError, timeoutMs: 3000 },
    price: { input: 0, output: 100 },
  });

beforeAll(async () => {
  [redis, postgres, upstream] = await Promise.all([
    startRedis(),
    startPostgres(),
    startMockUpstream({ routes: { 'POST /v1/chat/completions': heldChatRoute(answer, 100, held) } }),
  ]);
  databaseUrl = await postgres.createDatabase('shared');
  [a, b] = await spawnReplicas(databaseUrl, [yaml('open'), yaml('closed')]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([upstream?.close(), redis?.close(), postgres?.close()]);
}, 30_000);

const admin = masterKeyAdmin(MASTER);

/** Creates a key on `gateway` and waits until the other process has loaded it too (Redis pub/sub, then Postgres). */
async function newKey(gateway: SpawnedGateway, body: Record<string, unknown>) {
  const created = (await admin(gateway, 'POST', '/keys', body)) as { id: string; key: string };
  const other = gateway === a ? b : a;
  await expect
    .poll(async () => (await admin(other, 'GET', `/keys/${created.id}`)).id, { timeout: 1000, interval: 20 })
    .toBe(created.id);
  return created;
}
const ask = (gateway: SpawnedGateway, key: string, content = 'Tell me a story.') =>
  new OpenAI({ baseURL: gateway.url, apiKey: key, maxRetries: 0, timeout: 10_000 }).chat.completions.create({
    model: 'gpt-4o',
    max_tokens: MAX_TOKENS,
    messages: [{ role: 'user', content }],
  });
const statusOf = (gateway: SpawnedGateway, key: string) => outcomeOf(ask(gateway, key));
type ApiError = InstanceType<typeof OpenAI.APIError>;

/** `count` calls at once, alternating between the two processes; `refill(perMinute)` is what a bucket refilled meanwhile. */
async function burst(key: string, count = 60) {
  const started = Date.now();
  const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => ask(i % 2 ? a : b, key)));
  const elapsed = Date.now() - started;
  const refused = results
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    .map((r) => r.reason as ApiError);
  return {
    admitted: results.length - refused.length,
    refused,
    refill: (perMinute: number) => Math.floor((elapsed * perMinute) / 60_000),
  };
}

/** Ledger rows of `keyId` as `GET /admin/usage` on `gateway` reports them. */
async function usageRequests(gateway: SpawnedGateway, keyId: string): Promise<number> {
  const res = await fetch(`${gateway.origin}/admin/usage?key=${keyId}`, {
    headers: { authorization: `Bearer ${MASTER}` },
  });
  if (res.status !== 200) return -1;
  return ((await res.json()) as { data: { requests: number }[] }).data[0]?.requests ?? 0;
}

/** `switchyard_rate_limited_total{kind}` of one process. */
async function rateLimited(gateway: SpawnedGateway, kind: string): Promise<number> {
  const text = await (await fetch(`${gateway.origin}/metrics`)).text();
  return Number(new RegExp(`^switchyard_rate_limited_total\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
}

async function ledgerRows(keyId: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number(
      (await client.query('SELECT COUNT(*) AS n FROM switchyard_usage WHERE key_id = $1', [keyId])).rows[0].n,
    );
  } finally {
    await client.end();
  }
}

describe('two gateway processes sharing one Redis and one Postgres', () => {
  it('rpm_limit 20: of 60 concurrent calls over both, 20 are admitted (plus what refills meanwhile), the rest 429 with OpenAI headers', async () => {
    const { key, id } = await newKey(a, { name: 'rpm', rpm_limit: 20 });
    const { admitted, refused, refill } = await burst(key);
    // Tolerance: none beyond what the bucket refills while the burst runs (one request per 3 s), whatever the replicas.
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThanOrEqual(20 + refill(20));
    expect(refused.every((e) => e.status === 429 && e.code === 'rate_limit_exceeded')).toBe(true);
    expect(refused[0]!.headers?.get('x-ratelimit-limit-requests')).toBe('20');
    expect(refused[0]!.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused[0]!.headers?.get('x-ratelimit-reset-requests')).toMatch(/^(\d+m)?\d+s$/);
    expect(Number(refused[0]!.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The usage report of either process shows the rows of both (admitted and refused calls).
    await expect.poll(() => usageRequests(a, id), { timeout: 10_000 }).toBe(60);
    await expect.poll(() => usageRequests(b, id), { timeout: 10_000 }).toBe(60);
  });

  it('tpm_limit 5,000: calls reserving 1,004 tokens each fill 5,000 over both, within the tolerance', async () => {
    const { key } = await newKey(b, { name: 'tpm', tpm_limit: 5000 });
    const { admitted, refused, refill } = await burst(key);
    expect(admitted).toBeGreaterThanOrEqual(4);
    // Tolerance: the prompt estimate's error (4 tokens a call) and what the bucket refills while the burst runs.
    expect(admitted * (MAX_TOKENS + 8)).toBeLessThanOrEqual(5000 + admitted * 4 + refill(5000));
    expect(refused.every((e) => e.status === 429 && e.code === 'rate_limit_exceeded')).toBe(true);
    expect(refused[0]!.headers?.get('x-ratelimit-limit-tokens')).toBe('5000');
    expect(Number(refused[0]!.headers?.get('x-ratelimit-remaining-tokens'))).toBeLessThan(MAX_TOKENS + 4);
  });

  it('a $1 budget (calls of $0.10): 10 of 60 admitted over both; after Redis restarts empty the spend is rebuilt from the ledger', async () => {
    const { key, id } = await newKey(a, { name: 'budget', budget_usd: 1 });
    const { admitted, refused } = await burst(key);
    expect(admitted).toBe(10);
    expect(refused.every((e) => e.status === 429 && e.code === 'insufficient_quota')).toBe(true);
    // Both processes have written their rows; then Redis loses every counter (persistence is off).
    await expect.poll(() => usageRequests(a, id), { timeout: 10_000 }).toBe(60);
    await expect.poll(() => usageRequests(b, id), { timeout: 10_000 }).toBe(60);
    await redis.stop();
    await redis.start();
    // Once both have reconnected (until then, replica A's on_error: open would serve calls unlimited):
    for (const gateway of [a, b]) await waitUntilReady(gateway.origin, 5000, 50);
    const upstreamCalls = upstream.requests.length;
    // The budget is still spent on both: each rebuilds the running spend from the ledger at the key's next call.
    for (const gateway of [a, b])
      await expect
        .poll(() => outcomeOf(ask(gateway, key), 'code'), { timeout: 5000, interval: 100 })
        .toBe('insufficient_quota');
    expect(upstream.requests.length).toBe(upstreamCalls);
  });

  it('concurrency_limit 3: of 12 calls in flight over both, 3 reach the upstream, the rest 429 concurrency_limit_exceeded; the slots come back', async () => {
    const { key } = await newKey(a, { name: 'concurrency', concurrency_limit: 3 });
    const refusedBefore = (await rateLimited(a, 'concurrency')) + (await rateLimited(b, 'concurrency'));
    const upstreamBefore = upstream.requests.length;
    const settled: PromiseSettledResult<unknown>[] = [];
    const calls = Array.from({ length: 12 }, (_, i) =>
      ask(i % 2 ? a : b, key, 'hold').then(
        (value) => void settled.push({ status: 'fulfilled', value }),
        (reason) => void settled.push({ status: 'rejected', reason }),
      ),
    );
    // Nine are refused while three wait upstream (none is answered before the gate opens).
    await expect.poll(() => settled.length, { timeout: 10_000 }).toBe(9);
    expect(upstream.requests.length - upstreamBefore).toBe(3);
    const refused = settled.map((r) => (r as PromiseRejectedResult).reason as ApiError);
    expect(refused.every((e) => e.status === 429 && e.code === 'concurrency_limit_exceeded')).toBe(true);
    expect(refused[0]!.headers?.get('retry-after')).toBe('1');
    held.open();
    await Promise.all(calls);
    held.close();
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    // Each process counts the refusals it answered; together, all nine.
    await expect
      .poll(async () => (await rateLimited(a, 'concurrency')) + (await rateLimited(b, 'concurrency')) - refusedBefore)
      .toBe(9);
    // Every slot was given back: three calls at once pass again, over both.
    expect(await Promise.all([a, b, a].map((gateway) => statusOf(gateway, key)))).toEqual([200, 200, 200]);
  });

  it('a key created on one is usable on the other; revoked on one, the other refuses it within a second', async () => {
    const created = await newKey(b, { name: 'moving' });
    await expect.poll(() => statusOf(a, created.key), { timeout: 1000, interval: 20 }).toBe(200);
    await admin(a, 'DELETE', `/keys/${created.id}`);
    const revokedAt = Date.now();
    await expect.poll(() => statusOf(b, created.key), { timeout: 1000, interval: 20 }).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('Redis stopped mid-run: on_error open keeps serving with one warning line, closed answers 503 limits_unavailable; both recover by themselves', async () => {
    const { key } = await newKey(a, { name: 'outage', rpm_limit: 1000 });
    expect(await statusOf(a, key)).toBe(200);
    expect(await statusOf(b, key)).toBe(200);
    await redis.stop();
    try {
      for (let i = 0; i < 4; i++) expect(await statusOf(a, key)).toBe(200);
      const error = (await ask(b, key).catch((e: ApiError) => e)) as ApiError;
      expect(error).toMatchObject({ status: 503, code: 'limits_unavailable', type: 'server_error' });
      expect(error.headers?.get('retry-after')).toBe('1');
      const ready = await fetch(`${a.origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(JSON.stringify(await ready.json())).toContain('redis');
      // One line a minute, however many calls could not reach Redis. The child's stdout reaches this process through a
      // pipe, so wait for the line to arrive rather than expect it in the same instant. The connection's own "Redis
      // unreachable" (its reconnect failing) and "Redis limits unavailable" (a call's check failing) share that line,
      // whichever comes first: on a loaded machine the reconnect, 100 ms after the stop, can come before the first check.
      const warnings = () => a.logs.filter((l) => /Redis (limits unavailable|unreachable)/.test(l));
      await expect.poll(() => warnings().length, { timeout: 5000, interval: 50 }).toBeGreaterThan(0);
      expect(warnings()).toHaveLength(1);
      expect(a.logs.join('\n')).not.toContain(MASTER);
    } finally {
      await redis.start();
    }
    await expect.poll(() => statusOf(b, key), { timeout: 5000, interval: 100 }).toBe(200);
    await waitUntilReady(a.origin, 5000);
    // Limits are counted again on both once Redis is back: one request per minute, shared.
    const limited = await newKey(b, { name: 'after', rpm_limit: 1 });
    await expect.poll(() => statusOf(a, limited.key), { timeout: 5000, interval: 100 }).toBe(200);
    await expect(ask(b, limited.key)).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });

  it('Postgres stopped and started again: both keep serving and no ledger row of either is lost', async () => {
    const { key, id } = await newKey(a, { name: 'ledger', rpm_limit: 1000 });
    // B loads the new key from Postgres when A announces it; one call there (one ledger row) shows it has.
    await expect.poll(() => statusOf(b, key), { timeout: 1000, interval: 20 }).toBe(200);
    await postgres.stop();
    try {
      const served = await Promise.all(Array.from({ length: 10 }, (_, i) => statusOf(i % 2 ? a : b, key)));
      expect(served).toEqual(Array(10).fill(200));
      expect((await fetch(`${b.origin}/readyz`)).status).toBe(503);
    } finally {
      await postgres.start();
    }
    await expect.poll(() => usageRequests(a, id), { timeout: 20_000, interval: 200 }).toBe(11);
    await expect.poll(() => usageRequests(b, id), { timeout: 20_000, interval: 200 }).toBe(11);
    expect(await ledgerRows(id)).toBe(11);
  }, 40_000);
});
