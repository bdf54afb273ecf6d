import { createServer } from 'node:net';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import { freePort, startPostgres, startRedis, type TestPostgres, type TestRedis } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerCount } from '../src/cluster/resolve-worker-count.js';
import { failedStart, type SpawnedGateway, spawnGateway } from './helpers/spawn-gateway.js';

const KEY = 'sk-switchyard-test-key-0123456789';
let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
});
afterAll(() => upstream?.close());

const yaml = (port: number, extra = '') => `
server: { host: 127.0.0.1, port: ${port} }
keys: ["${KEY}"]
log: { level: warn }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai }
${extra}`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('switchyard start --workers', () => {
  // Event-ordered: every wait is for a line the primary prints (never a fixed time), and the whole test may take a
  // minute on a loaded machine (two full gateway processes start, twice).
  it('serves from N processes on one port and restarts a killed worker', { timeout: 90_000 }, async () => {
    const gateway = await spawnGateway(yaml(await freePort()), ['--workers', '2'], {}, 60_000);
    try {
      expect(gateway.lines.join('\n')).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1 \(2 workers/);
      const pids = gateway.lines.flatMap((l) => /worker (\d+) started/.exec(l)?.[1] ?? []).map(Number);
      expect(pids).toHaveLength(2);
      const client = new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      const chat = () =>
        client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      const answers = await Promise.all(Array.from({ length: 20 }, chat));
      expect(answers.every((a) => a.choices.length > 0)).toBe(true);

      // A replacement is a worker pid none of the originals has: wait for its `started`, then for its `listening`.
      const replacementOf = async (known: number[]) => {
        const started = await gateway.waitForLine(
          new RegExp(`worker (?!(?:${known.join('|')}) )(\\d+) started`),
          60_000,
        );
        const pid = Number(/worker (\d+) started/.exec(started)?.[1]);
        await gateway.waitForLine(new RegExp(`worker ${pid} listening`), 60_000);
        return pid;
      };
      process.kill(pids[0]!, 'SIGKILL');
      await gateway.waitForLine(new RegExp(`worker ${pids[0]} died \\(SIGKILL\\); starting a new one`), 60_000);
      const replacement = await replacementOf(pids);
      expect(alive(replacement)).toBe(true);
      // Kill the other original worker too: once its replacement listens, only replacements are left, and they serve.
      process.kill(pids[1]!, 'SIGKILL');
      await gateway.waitForLine(new RegExp(`worker ${pids[1]} died`), 60_000);
      const second = await replacementOf([...pids, replacement]);
      for (let i = 0; i < 5; i++) expect((await chat()).choices[0]?.message.content).toEqual(expect.any(String));
      expect(await gateway.stop()).toBe(0);
      expect(alive(replacement)).toBe(false);
      expect(alive(second)).toBe(false);
    } finally {
      await gateway.stop();
    }
  });

  it('keeps one rpm_limit across both workers (redis.url set): 60 concurrent calls to the one port admit 20', {
    timeout: 90_000,
  }, async () => {
    const MASTER = 'sk-master-key-for-workers-0123456789';
    let redis: TestRedis | undefined;
    let postgres: TestPostgres | undefined;
    let gateway: SpawnedGateway | undefined;
    try {
      [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
      const databaseUrl = await postgres.createDatabase('workers');
      const extra = `admin: { master_key: "${MASTER}" }\nstore: { postgres: "${databaseUrl}" }\nredis: { url: "${redis.url}" }\n`;
      gateway = await spawnGateway(yaml(await freePort(), extra), ['--workers', '2'], {}, 60_000);
      const origin = gateway.origin;
      const admin = (path: string, init: RequestInit = {}) =>
        fetch(`${origin}/admin${path}`, {
          ...init,
          headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json', connection: 'close' },
        });
      const created = (await (
        await admin('/keys', { method: 'POST', body: JSON.stringify({ name: 'workers', rpm_limit: 20 }) })
      ).json()) as { id: string; key: string };
      // The worker that created the key announces it on Redis; the other loads it. New connections alternate between
      // the workers (round-robin), so four answers in a row on fresh connections come from both.
      await expect
        .poll(
          async () =>
            (await Promise.all([0, 1, 2, 3].map(async () => (await admin(`/keys/${created.id}`)).status))).join(),
          { timeout: 5000 },
        )
        .toBe('200,200,200,200');
      const client = new OpenAI({ baseURL: gateway.url, apiKey: created.key, maxRetries: 0 });
      const started = Date.now();
      const results = await Promise.allSettled(
        Array.from({ length: 60 }, () =>
          client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        ),
      );
      const refill = Math.floor(((Date.now() - started) * 20) / 60_000);
      const admitted = results.filter((r) => r.status === 'fulfilled').length;
      expect(admitted).toBeGreaterThanOrEqual(20);
      expect(admitted).toBeLessThanOrEqual(20 + refill);
      const refused = results.flatMap((r) =>
        r.status === 'rejected' ? [r.reason as InstanceType<typeof OpenAI.APIError>] : [],
      );
      expect(refused.every((e) => e.status === 429 && e.code === 'rate_limit_exceeded')).toBe(true);
      expect(refused[0]!.headers?.get('x-ratelimit-limit-requests')).toBe('20');
      // The shared ledger holds all 60 rows, whichever worker took them.
      await expect
        .poll(
          async () =>
            ((await (await admin(`/usage?key=${created.id}`)).json()) as { data: { requests: number }[] }).data[0]
              ?.requests,
          { timeout: 10_000 },
        )
        .toBe(60);
    } finally {
      await gateway?.stop();
      await Promise.all([redis?.close(), postgres?.close()]);
    }
  });

  it('refuses several workers with virtual keys and no redis.url, naming redis.url', async () => {
    const { code, stderr } = await failedStart(
      yaml(0, 'admin: { master_key: sk-master-key-0123456789 }\nstore: { sqlite: ":memory:" }\n'),
      ['--workers', '2'],
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/redis\.url/);
  });

  it('exits with the error instead of restarting when workers cannot start', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { code, stderr } = await failedStart(yaml((taken.address() as { port: number }).port), ['--workers', '2']);
    taken.close();
    expect(code).toBe(1);
    expect(stderr).toMatch(/EADDRINUSE/);
    expect(stderr).toMatch(/before the gateway started; stopping/);
  });

  it("resolves 'auto' to one per core and rejects nonsense", () => {
    expect(resolveWorkerCount(undefined, undefined)).toBe(1);
    expect(resolveWorkerCount('3', 1)).toBe(3);
    expect(resolveWorkerCount(undefined, 'auto')).toBeGreaterThanOrEqual(1);
    expect(() => resolveWorkerCount('0', undefined)).toThrow(/--workers: '0'/);
    expect(() => resolveWorkerCount('two', undefined)).toThrow(/--workers/);
  });
});
