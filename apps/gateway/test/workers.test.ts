import { createServer } from 'node:net';
import { freePort } from '@switchyard/testkit/servers';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerCount } from '../src/cluster/resolve-worker-count.js';
import { failedStart, spawnGateway } from './helpers/spawn-gateway.js';

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
  it('serves from N processes on one port and restarts a killed worker', async () => {
    const gateway = await spawnGateway(yaml(await freePort()), ['--workers', '2']);
    try {
      expect(gateway.lines.join('\n')).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1 \(2 workers/);
      const pids = gateway.lines.flatMap((l) => /worker (\d+) started/.exec(l)?.[1] ?? []).map(Number);
      expect(pids).toHaveLength(2);
      const client = new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      const chat = () => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      const answers = await Promise.all(Array.from({ length: 20 }, chat));
      expect(answers.every((a) => a.choices.length > 0)).toBe(true);

      process.kill(pids[0]!, 'SIGKILL');
      const restarted = await gateway.waitForLine(new RegExp(`worker ${pids[0]} died \\(SIGKILL\\); starting a new one`));
      expect(restarted).toBeTruthy();
      const replacement = Number(/worker (\d+) listening/.exec(await gateway.waitForLine(/worker \d+ listening/))?.[1]);
      expect(alive(replacement)).toBe(true);
      // Kill the other original worker too: only the replacement is left, and it serves.
      process.kill(pids[1]!, 'SIGKILL');
      await gateway.waitForLine(new RegExp(`worker ${pids[1]} died`));
      for (let i = 0; i < 5; i++) expect((await chat()).choices[0]?.message.content).toEqual(expect.any(String));
      expect(await gateway.stop()).toBe(0);
      expect(alive(replacement)).toBe(false);
    } finally {
      await gateway.stop();
    }
  });

  it('refuses several workers with virtual keys and no redis.url, naming redis.url', async () => {
    const { code, stderr } = await failedStart(yaml(0, 'admin: { master_key: sk-master-key-0123456789 }\nstore: { sqlite: ":memory:" }\n'), ['--workers', '2']);
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
