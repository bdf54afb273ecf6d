import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type MockUpstream, startMockUpstream } from '@switchyard/testkit';
import { startPostgres, startRedis, type TestPostgres, type TestRedis } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsInTurn } from '../helpers/calls-in-turn.js';
import { chatCompletion } from '../helpers/chat-completion.js';
import { waitUntilReady } from '../helpers/readiness.js';
import { replicaYaml, spawnReplicas } from '../helpers/replicas.js';
import type { SpawnedGateway } from '../helpers/spawn-gateway.js';

// Attack (issue #38 item 6, two replicas): with `redis.on_error: open`, nothing was counted while Redis was down, and
// a Redis that came back empty started every bucket full. Now each replica enforces its own share of a key's limits
// while Redis is unreachable (limit / the replicas Redis's heartbeat last counted), so the replicas together stay
// within the limit; and a Redis that comes back empty rebuilds each key's buckets from the ledger's last minute. Two
// `switchyard start` processes (the built CLI) on one real redis-server and one real Postgres (the shared ledger).
const MASTER = 'sk-master-key-for-replica-share-0123456';
const RPM = 10;
const redisCli = promisify(execFile);

let redis: TestRedis;
let postgres: TestPostgres;
let upstream: MockUpstream;
let a: SpawnedGateway;
let b: SpawnedGateway;

const yaml = () =>
  replicaYaml({
    masterKey: MASTER,
    upstreamUrl: upstream.url,
    storeTimeoutMs: 2000,
    redis: { url: redis.url, onError: 'open', timeoutMs: 1000 },
    price: { input: 1, output: 2 },
  });

beforeAll(async () => {
  const answer = chatCompletion('gpt-4o', 5, 1);
  [redis, postgres, upstream] = await Promise.all([
    startRedis(),
    startPostgres(),
    startMockUpstream({ routes: { 'POST /v1/chat/completions': { json: answer } } }),
  ]);
  [a, b] = await spawnReplicas(await postgres.createDatabase('share'), [yaml(), yaml()], 60_000);
}, 90_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([upstream?.close(), redis?.close(), postgres?.close()]);
}, 30_000);

/** Runs one redis-cli command against the test's Redis; its output lines. */
async function cli(...args: string[]): Promise<string[]> {
  const { stdout } = await redisCli('redis-cli', ['-p', String(redis.port), ...args]);
  return stdout.split('\n').filter((line) => line !== '');
}

/** Sends `count` calls to `gateway` one after another; counts answers 200 and 429 (anything else fails the test). */
const callMany = (gateway: SpawnedGateway, key: string, count: number) =>
  callsInTurn(new OpenAI({ baseURL: gateway.url, apiKey: key, maxRetries: 0, timeout: 10_000 }), count);

describe('security: each replica enforces its share of the limits while Redis is down (on_error: open)', () => {
  it(`rpm_limit ${RPM} over two processes: each admits its share (${RPM / 2}), the sum stays within the limit, and an empty Redis is rebuilt from the ledger`, async () => {
    // Both replicas must know there are two: each one's own count, as its limiter will use it (its gauge).
    const counted = async (gateway: SpawnedGateway) => {
      const text = await (await fetch(`${gateway.origin}/metrics`)).text();
      return Number(/^switchyard_redis_replicas (\d+)$/m.exec(text)?.[1]);
    };
    await expect
      .poll(async () => [await counted(a), await counted(b)], { timeout: 15_000, interval: 100 })
      .toEqual([2, 2]);
    expect(Number((await cli('ZCARD', 'switchyard:replicas'))[0])).toBe(2);

    const created = (await (
      await fetch(`${a.origin}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'share', rpm_limit: RPM }),
      })
    ).json()) as { id: string; key: string };
    const started = Date.now();
    await redis.stop();
    const [onA, onB] = await Promise.all([callMany(a, created.key, RPM), callMany(b, created.key, RPM)]);
    const downS = (Date.now() - started) / 1000;
    // A bucket of rpm/2 refills at rpm/2 per minute: at most one more call per replica per 12 s of outage.
    const refill = Math.floor((downS * RPM) / 2 / 60);
    console.log(
      `Redis down ${downS.toFixed(1)} s: replica A served ${onA.served}/${RPM}, replica B ${onB.served}/${RPM} (share ${RPM / 2} each, limit ${RPM})`,
    );
    for (const replica of [onA, onB]) {
      expect(replica.served).toBeGreaterThanOrEqual(RPM / 2);
      expect(replica.served).toBeLessThanOrEqual(RPM / 2 + refill);
    }
    expect(onA.served + onB.served).toBeLessThanOrEqual(RPM + 2 * refill);

    // Redis comes back empty: the key's bucket is rebuilt from the ledger's last minute (the 10 calls served), so the
    // calls right after it are refused, not served at the full rate of a new bucket.
    // The rebuild reads what the ledger holds: it counts the calls whose rows are written (each replica writes its
    // rows every second), so the test waits for the outage's rows as an operator's Redis restart takes seconds.
    const written = async () => {
      const res = await fetch(`${a.origin}/admin/usage?key=${created.id}`, {
        headers: { authorization: `Bearer ${MASTER}` },
      });
      const { data } = (await res.json()) as { data: { requests: number }[] };
      return data.reduce((sum, row) => sum + row.requests, 0);
    };
    await expect.poll(written, { timeout: 10_000, interval: 100 }).toBeGreaterThanOrEqual(onA.served + onB.served);
    await redis.start();
    for (const gateway of [a, b]) await waitUntilReady(gateway.origin);
    const back = await callMany(b, created.key, RPM);
    const elapsedS = (Date.now() - started) / 1000;
    console.log(
      `Redis back empty after ${downS.toFixed(1)} s: ${back.served}/${RPM} served on B, ${elapsedS.toFixed(1)} s after the outage began`,
    );
    expect(back.served).toBeLessThanOrEqual(Math.ceil((elapsedS * RPM) / 60) + 1);
    expect(onA.served + onB.served + back.served).toBeLessThanOrEqual(RPM + Math.ceil((elapsedS * RPM) / 60) + 1);
  });
});
