import { startRedis, type TestRedis } from '@switchyard/testkit/servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsInTurn } from '../helpers/calls-in-turn.js';
import { waitUntilReady } from '../helpers/readiness.js';
import { type AccountsGateway, completion, startAccountsGateway } from './accounts-gateway.js';

// Attack (issue #38 item 6): with `redis.on_error: open`, nothing was counted while Redis was down, and a Redis that
// came back empty started every bucket full: a key with `rpm_limit: 60` got 160 calls in 8 s across a restart. Now,
// while Redis is unreachable, the replica counts its share of the limits itself (the whole limit with one replica),
// starting from what the ledger says the key used in the last minute; and a Redis that comes back empty rebuilds each
// key's buckets from the ledger's last minute before admitting at full rate.
let redis: TestRedis;
let gw: AccountsGateway;

beforeAll(async () => {
  redis = await startRedis();
  gw = await startAccountsGateway(
    { json: completion('gpt-4o', 5, 3) },
    `models:\n  - { id: gpt-4o, provider: openai, price: { input: 1, output: 2 } }\nredis: { url: "${redis.url}", on_error: open, timeout_ms: 500 }\n`,
  );
}, 30_000);
afterAll(async () => {
  await gw?.close();
  await redis?.close();
});

const callMany = callsInTurn;

describe('security: rate limits across a Redis restart (on_error: open)', () => {
  it('rpm_limit 60 holds while Redis is down and after it comes back empty', async () => {
    const { key } = await gw.createKey({ name: 'restart', rpm_limit: 60 });
    const client = gw.client(key);
    const started = Date.now();
    const before = await callMany(client, 200, true);
    expect(before.served).toBeGreaterThanOrEqual(60);
    expect(before.served).toBeLessThanOrEqual(60 + Math.ceil((Date.now() - started) / 1000));
    await redis.stop();
    const down = await callMany(client, 20);
    await redis.start();
    // The gateway reconnects by itself (every 0.1-1 s): /readyz checks Redis.
    await waitUntilReady(gw.running.url.replace(/\/v1$/, ''));
    const back = await callMany(client, 20);
    const elapsedS = (Date.now() - started) / 1000;
    // Served in all: 60 at once, then one a second as the bucket refills (plus one for rounding in each phase).
    const total = before.served + down.served + back.served;
    expect(down.refused).toBeGreaterThan(0);
    expect(back.refused).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(60 + Math.ceil(elapsedS) + 3);
  }, 60_000);

  it("a team's, an organization's and an end user's rpm hold after Redis comes back empty (rebuilt from the ledger)", async () => {
    const org = (await gw.admin('POST', '/organizations', { name: 'o', rpm_limit: 30 })).body.id as string;
    const team = (await gw.admin('POST', '/teams', { name: 't', organization_id: org, rpm_limit: 20 })).body.id;
    const { key } = await gw.createKey({ name: 'member', team_id: team as string, end_user_rpm_limit: 10 });
    const { key: other } = await gw.createKey({ name: 'other', team_id: team as string });
    const ask = (apiKey: string, user?: string) =>
      gw
        .client(apiKey)
        .chat.completions.create({
          model: 'gpt-4o',
          max_tokens: 5,
          messages: [{ role: 'user', content: 'hi' }],
          ...(user && { user }),
        })
        .then(
          () => 200,
          (error: { status: number; message: string }) => `${error.status} ${error.message}`,
        );
    const many = async (count: number, apiKey: string, user?: string) => {
      const answers: (number | string)[] = [];
      for (let i = 0; i < count; i++) answers.push(await ask(apiKey, user));
      return answers;
    };
    // Before: the end user's 10 of a minute, then the team's other 10 by another key.
    const started = Date.now();
    const user = await many(12, key, 'alice');
    expect(user.filter((a) => a === 200).length).toBe(10);
    expect(user.at(-1)).toContain("this end user's requests: 10 per minute");
    const team20 = await many(12, other);
    expect(team20.filter((a) => a === 200).length).toBeLessThanOrEqual(10 + Math.ceil((Date.now() - started) / 3000));
    expect(team20.at(-1)).toContain("this team's requests: 20 per minute");
    // Redis restarts empty: the end user's and the team's buckets start from the ledger's last minute, not full.
    await redis.stop();
    await redis.start();
    await waitUntilReady(gw.running.url.replace(/\/v1$/, ''));
    const elapsedS = (Date.now() - started) / 1000;
    const userAfter = await many(5, key, 'alice');
    const teamAfter = await many(5, other);
    // A bucket refills at its limit per minute: at most elapsed x 10/60 for the end user, x 20/60 for the team (+1).
    expect(userAfter.filter((a) => a === 200).length).toBeLessThanOrEqual(Math.ceil((elapsedS * 10) / 60) + 1);
    expect(teamAfter.filter((a) => a === 200).length).toBeLessThanOrEqual(Math.ceil((elapsedS * 20) / 60) + 1);
    expect(userAfter.at(-1)).toMatch(/429 Rate limit reached for this (end user|team)'s requests/);
    expect(teamAfter.at(-1)).toContain("429 Rate limit reached for this team's requests: 20 per minute");
  }, 60_000);
});
