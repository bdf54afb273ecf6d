import { startRedis, type TestRedis } from '@switchyard/testkit/servers';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Sends `count` calls one after another (or until the first refusal with `untilRefused`); counts answers 200 and 429. */
async function callMany(
  client: OpenAI,
  count: number,
  untilRefused = false,
): Promise<{ served: number; refused: number }> {
  let served = 0;
  let refused = 0;
  for (let i = 0; i < count; i++) {
    try {
      await client.chat.completions.create({
        model: 'gpt-4o',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      });
      served++;
    } catch (error) {
      expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      refused++;
      if (untilRefused) break;
    }
  }
  return { served, refused };
}

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
    await expect
      .poll(async () => (await fetch(`${gw.running.url.replace(/\/v1$/, '')}/readyz`)).status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(200);
    const back = await callMany(client, 20);
    const elapsedS = (Date.now() - started) / 1000;
    // Served in all: 60 at once, then one a second as the bucket refills (plus one for rounding in each phase).
    const total = before.served + down.served + back.served;
    expect(down.refused).toBeGreaterThan(0);
    expect(back.refused).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(60 + Math.ceil(elapsedS) + 3);
  }, 60_000);
});
