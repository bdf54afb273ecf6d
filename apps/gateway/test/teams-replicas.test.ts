import { type MockUpstream, startMockUpstream } from '@switchyard/testkit';
import { startPostgres, startRedis, type TestPostgres, type TestRedis } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletion } from './helpers/chat-completion.js';
import { heldChatRoute, masterKeyAdmin, replicaYaml, reusableGate, spawnReplicas } from './helpers/replicas.js';
import type { SpawnedGateway } from './helpers/spawn-gateway.js';

// A team's and an organisation's limits across two `switchyard start` processes (the built CLI) sharing one real
// redis-server and one real Postgres: 50 parallel calls by two keys of one team (or of two teams of one organisation,
// created on different replicas), spread over both replicas, are admitted only as far as the team or organisation
// allows (rpm, budget, concurrency), checked with each key's own limits in one Redis script.
const MASTER = 'sk-master-key-for-teams-replicas-012345';
const MAX_TOKENS = 1000;
// 1,000 completion tokens at 100 USD per million: 0.1 USD a call, as estimated (max_tokens) and as settled.
const answer = chatCompletion('gpt-4o', 8, MAX_TOKENS);
type ApiError = InstanceType<typeof OpenAI.APIError>;

let redis: TestRedis;
let postgres: TestPostgres;
let upstream: MockUpstream;
let a: SpawnedGateway;
let b: SpawnedGateway;
/** Upstream calls whose prompt is `hold` wait until the test opens the gate. */
const held = reusableGate();

const yaml = () =>
  replicaYaml({
    masterKey: MASTER,
    upstreamUrl: upstream.url,
    storeTimeoutMs: 3000,
    redis: { url: redis.url, timeoutMs: 3000 },
    price: { input: 0, output: 100 },
  });

beforeAll(async () => {
  [redis, postgres, upstream] = await Promise.all([
    startRedis(),
    startPostgres(),
    startMockUpstream({ routes: { 'POST /v1/chat/completions': heldChatRoute(answer, 50, held) } }),
  ]);
  const databaseUrl = await postgres.createDatabase('teams');
  [a, b] = await spawnReplicas(databaseUrl, [yaml(), yaml()]);
}, 90_000);
afterAll(async () => {
  held.open();
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([upstream?.close(), redis?.close(), postgres?.close()]);
}, 30_000);

const admin = masterKeyAdmin(MASTER);

/** Polls until `gateway` knows the admin record at `path` (created on the other replica). */
const known = (gateway: SpawnedGateway, path: string, id: string) =>
  expect.poll(async () => (await admin(gateway, 'GET', `${path}/${id}`)).id, { timeout: 2000, interval: 20 }).toBe(id);

/**
 * Two keys, one created on each replica (each waiting for the other to know it), under a `team` created on A with
 * `limits`; or, for `organization`, an organisation created on A with `limits` and two teams without limits, one
 * created on each replica, one key in each.
 */
async function groupWithTwoKeys(kind: 'team' | 'organization', limits: Record<string, unknown>) {
  const path = kind === 'team' ? '/teams' : '/organizations';
  const group = (await admin(a, 'POST', path, { name: 'shared', ...limits })).id as string;
  await known(b, path, group);
  let teams = [group, group];
  if (kind === 'organization') {
    teams = [
      (await admin(a, 'POST', '/teams', { name: 'ta', organization_id: group })).id as string,
      (await admin(b, 'POST', '/teams', { name: 'tb', organization_id: group })).id as string,
    ];
    await known(b, '/teams', teams[0]!);
    await known(a, '/teams', teams[1]!);
  }
  const keyA = (await admin(a, 'POST', '/keys', { name: 'a', team_id: teams[0], rpm_limit: 1000 })) as {
    id: string;
    key: string;
  };
  const keyB = (await admin(b, 'POST', '/keys', { name: 'b', team_id: teams[1] })) as { id: string; key: string };
  await known(a, '/keys', keyB.id);
  await known(b, '/keys', keyA.id);
  return { group, keys: [keyA.key, keyB.key] };
}

const ask = (gateway: SpawnedGateway, key: string, content = 'Tell me a story.') =>
  new OpenAI({ baseURL: gateway.url, apiKey: key, maxRetries: 0, timeout: 20_000 }).chat.completions.create({
    model: 'gpt-4o',
    max_tokens: MAX_TOKENS,
    messages: [{ role: 'user', content }],
  });

/** 50 calls at once: alternating replicas, and keys in turn (so every key reaches both replicas). */
async function burst(keys: string[], content?: string) {
  const started = Date.now();
  const results = await Promise.allSettled(
    Array.from({ length: 50 }, (_, i) => ask(i % 2 ? a : b, keys[Math.floor(i / 2) % keys.length]!, content)),
  );
  const refused = results
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    .map((r) => r.reason as ApiError);
  return { admitted: results.length - refused.length, refused, elapsed: Date.now() - started };
}

describe.each(['team', 'organization'] as const)(
  "a %s's limits across two replicas (Redis, Postgres), 50 parallel calls by two keys",
  (kind) => {
    it(`rpm_limit 20 on the ${kind}: 20 admitted (plus what refills meanwhile), the rest 429 naming its limit`, async () => {
      const { keys } = await groupWithTwoKeys(kind, { rpm_limit: 20 });
      const { admitted, refused, elapsed } = await burst(keys);
      expect(admitted).toBeGreaterThanOrEqual(20);
      expect(admitted).toBeLessThanOrEqual(20 + Math.floor((elapsed * 20) / 60_000));
      expect(
        refused.every(
          (e) =>
            e.status === 429 &&
            e.code === 'rate_limit_exceeded' &&
            e.message === `429 Rate limit reached for this ${kind}'s requests: 20 per minute.`,
        ),
      ).toBe(true);
    });

    it(`budget_usd 1 on the ${kind} (calls of 0.10 USD): exactly 10 admitted, the rest 429 insufficient_quota; usage by ${kind} on either replica`, async () => {
      const { group, keys } = await groupWithTwoKeys(kind, { budget_usd: 1, budget_period: 'month' });
      const { admitted, refused } = await burst(keys);
      expect(admitted).toBe(10);
      expect(
        refused.every(
          (e) =>
            e.status === 429 &&
            e.code === 'insufficient_quota' &&
            // "This …'s budget … is spent" once settled, "… of this …'s budget" while calls hold reservations.
            new RegExp(`this ${kind}'s budget of 1 USD per month`, 'i').test(e.message),
        ),
      ).toBe(true);
      const usage = `/usage?group_by=${kind}&${kind}=${group}`;
      for (const gateway of [a, b]) {
        await expect
          .poll(
            async () =>
              ((await admin(gateway, 'GET', usage)).data as { group: string; requests: number; cost_usd: number }[])[0],
            { timeout: 10_000 },
          )
          .toMatchObject({ group, requests: 50 });
      }
      const [totals] = (await admin(b, 'GET', usage)).data as { cost_usd: number }[];
      expect(totals!.cost_usd).toBeCloseTo(1, 9);
    });

    it(`concurrency_limit 3 on the ${kind}: 3 of 50 held calls reach the upstream, 47 get 429 concurrency_limit_exceeded`, async () => {
      const { keys } = await groupWithTwoKeys(kind, { concurrency_limit: 3 });
      const before = upstream.requests.length;
      const running = burst(keys, 'hold');
      await expect.poll(() => upstream.requests.length - before, { timeout: 10_000 }).toBe(3);
      held.open();
      const { admitted, refused } = await running;
      held.close();
      expect(admitted).toBe(3);
      expect(refused.every((e) => e.status === 429 && e.code === 'concurrency_limit_exceeded')).toBe(true);
      expect(refused[0]!.message).toContain(`this ${kind} allows 3 at a time`);
    });
  },
);
