import { useRedisServer } from '@switchyard/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { SwitchyardRedis } from '../src/index.js';

const server = useRedisServer();
const open: SwitchyardRedis[] = [];

afterAll(async () => {
  await Promise.all(open.map((r) => r.close()));
});

describe('SwitchyardRedis after Redis restarts', () => {
  it('subscribes again by itself: listeners are told to reload every key, then hear key changes and breaker state again', async () => {
    const connect = async () => {
      const redis = await SwitchyardRedis.connect({ url: server.url, keyPrefix: 'restart:', commandTimeoutMs: 2_000 });
      open.push(redis);
      return redis;
    };
    const [a, b] = [await connect(), await connect()];
    const keys: (string | undefined)[] = [];
    const breakers: [string, number][] = [];
    b.subscribe((id) => keys.push(id));
    b.subscribeCooldown((key, until) => breakers.push([key, until]));
    await server.stop();
    await server.start();
    await expect.poll(() => keys, { timeout: 10_000 }).toContain(undefined);
    await expect
      .poll(
        async () => {
          await a.publish('key_after_restart').catch(() => {});
          return keys.includes('key_after_restart');
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    a.publishCooldown('openai/gpt-4o', 456);
    await expect.poll(() => breakers).toContainEqual(['openai/gpt-4o', 456]);
  });
});

describe('SwitchyardRedis heartbeat', () => {
  /** Connects a replica under `keyPrefix` (closed after the tests), with beats `heartbeatMs` apart. */
  const connectAs = async (keyPrefix: string, heartbeatMs?: number) => {
    const redis = await SwitchyardRedis.connect({ url: server.url, keyPrefix, heartbeatMs });
    open.push(redis);
    return redis;
  };

  it('counts the replicas sharing a Redis (each closed one leaves at once)', async () => {
    const connect = () => connectAs('beat:');
    const a = await connect();
    expect(a.replicas).toBe(1);
    const b = await connect();
    expect(b.replicas).toBe(2);
    const c = await connect();
    expect(c.replicas).toBe(3);
    await c.close();
    open.pop();
    const d = await connect();
    expect(d.replicas).toBe(3);
  });

  it('counts again at once when a replica joins or leaves, without waiting for a beat', async () => {
    // Beats an hour apart: only the announcements of a join or a leave can change a count here.
    const connect = () => connectAs('join:', 3_600_000);
    const a = await connect();
    expect(a.replicas).toBe(1);
    const b = await connect();
    expect(b.replicas).toBe(2);
    await expect.poll(() => a.replicas).toBe(2);
    const c = await connect();
    await expect.poll(() => [a.replicas, b.replicas, c.replicas]).toEqual([3, 3, 3]);
    await c.close();
    open.pop();
    await expect.poll(() => [a.replicas, b.replicas]).toEqual([2, 2]);
  });
});
