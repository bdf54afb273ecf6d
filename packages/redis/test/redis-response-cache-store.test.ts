import { useRedisServer } from '@switchyard/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { SwitchyardRedis } from '../src/index.js';

const server = useRedisServer();
const open: SwitchyardRedis[] = [];

afterAll(async () => {
  await Promise.all(open.map((r) => r.close()));
});

async function connect(warn?: (message: string, failures: number) => void) {
  const redis = await SwitchyardRedis.connect({
    url: server.url,
    keyPrefix: 'cachestore:',
    commandTimeoutMs: 2_000,
    warn,
  });
  open.push(redis);
  return redis;
}

describe('RedisResponseCacheStore (real redis-server)', () => {
  it('stores under <prefix>cache:<key>, shares entries between connections and lets Redis expire them', async () => {
    const [a, b] = [(await connect()).responseCacheStore(), (await connect()).responseCacheStore()];
    await a.set('chatCompletions:abc', '{"v":1}', 60_000);
    expect(await b.get('chatCompletions:abc')).toBe('{"v":1}');
    expect(await open[0]!.client.pttl('cachestore:cache:chatCompletions:abc')).toBeGreaterThan(59_000);
    await a.set('short', 'x', 50);
    await expect.poll(() => b.get('short'), { timeout: 2_000, interval: 20 }).toBeUndefined();
    expect(await b.get('never-stored')).toBeUndefined();
  });

  it('treats an unreachable Redis as a miss, drops writes and warns at most once a minute', async () => {
    const warnings: [string, number][] = [];
    const redis = await connect((message, failures) => warnings.push([message, failures]));
    const store = redis.responseCacheStore();
    await server.stop();
    try {
      expect(await store.get('k')).toBeUndefined();
      await expect(store.set('k', 'v', 1_000)).resolves.toBeUndefined();
      expect(await store.get('k')).toBeUndefined();
      const cacheWarnings = warnings.filter(([message]) => message.startsWith('Redis response cache unreachable'));
      expect(cacheWarnings).toHaveLength(1);
    } finally {
      await server.start();
    }
  });
});
