import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import { freePort } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway } from './helpers/spawn-gateway.js';

const KEY = 'sk-switchyard-test-key-0123456789';
let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
});
afterAll(() => upstream?.close());

describe('GET /metrics with --workers', () => {
  it('reports every worker, whichever worker takes the scrape', async () => {
    const gateway = await spawnGateway(
      `
server: { host: 127.0.0.1, port: ${await freePort()} }
keys: ["${KEY}"]
log: { level: warn }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai }
`,
      ['--workers', '2'],
    );
    try {
      const client = new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      await Promise.all(
        Array.from({ length: 20 }, () =>
          client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        ),
      );
      const sample =
        /^switchyard_requests_total\{operation="chat\.completions",model="gpt-4o",provider="openai",status="200"\} (\d+)$/m;
      // Requests are counted when their response has ended; then every scrape (connections go round-robin) sees all 20.
      await expect
        .poll(async () => Number(sample.exec(await (await fetch(`${gateway.origin}/metrics`)).text())?.[1]))
        .toBe(20);
      for (let i = 0; i < 4; i++) {
        const text = await (await fetch(`${gateway.origin}/metrics`, { headers: { connection: 'close' } })).text();
        expect(Number(sample.exec(text)?.[1])).toBe(20);
        expect(text).toMatch(
          /^switchyard_upstream_attempts_total\{provider="openai",model="gpt-4o",outcome="ok"\} 20$/m,
        );
      }
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });
});
