import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import { startPostgres, type TestPostgres } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { parseConfig } from '../src/config/load-config.js';
import { type RunningServer, startServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

const MASTER = 'sk-master-key-for-tests-0123456789';

let postgres: TestPostgres;
let upstream: MockUpstream;
let running: RunningServer;
let origin: string;

beforeAll(async () => {
  [postgres, upstream] = await Promise.all([startPostgres(), startMockUpstream({ routes: openaiReplayRoutes() })]);
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { postgres: "${postgres.url()}", timeout_ms: 1000 }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai, price: { input: 2, output: 8 } }
  - { id: cached-4o, provider: openai, upstream: gpt-4o, price: { input: 2, output: 8 }, cache: { ttl_s: 300 } }
routing: { max_retries: 0 }
`);
  origin = running.url.replace(/\/v1$/, '');
});
afterAll(async () => {
  await running?.close();
  await Promise.all([upstream?.close(), postgres?.close()]);
});

async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${origin}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const readyz = async () => {
  const res = await fetch(`${origin}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as { status: string; checks: Record<string, { status: string; reason?: string }> },
  };
};

describe('gateway on Postgres', () => {
  it('keeps keys and the ledger in Postgres, serves through an outage, and loses no ledger row', async () => {
    expect(await readyz()).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { adapters: { status: 'ok' }, shutdown: { status: 'ok' }, store: { status: 'ok' } },
      },
    });
    const { body: key } = await admin('POST', '/keys', { name: 'pg' });
    const client = new OpenAI({ baseURL: running.url, apiKey: key.key as string, maxRetries: 0 });
    const chat = () => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    for (let i = 0; i < 3; i++) await chat();
    await expect
      .poll(async () => ((await admin('GET', `/usage?key=${key.id}`)).body.data as { requests: number }[])[0]?.requests)
      .toBe(3);

    await postgres.stop();
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('not_ready');
    expect(down.body.checks.store).toEqual({
      status: 'failing',
      reason: expect.stringMatching(/ECONNREFUSED|terminat|connect/i),
    });
    expect(JSON.stringify(down.body)).not.toContain('switchyard-test');
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await chat()).choices[0]?.message.content).toEqual(expect.any(String));
    expect(running.accounts?.ledger.pending).toBeGreaterThan(0);

    await postgres.start();
    await expect.poll(async () => (await readyz()).status, { timeout: 10_000 }).toBe(200);
    await expect.poll(() => running.accounts?.ledger.pending, { timeout: 15_000 }).toBe(0);
    expect(((await admin('GET', `/usage?key=${key.id}`)).body.data as { requests: number }[])[0]?.requests).toBe(8);
  });

  it('books response cache hits in Postgres: cache_hit rows with no tokens and cost 0, cache_hits in /admin/usage', async () => {
    const { body: key } = await admin('POST', '/keys', { name: 'pg-cache' });
    const client = new OpenAI({ baseURL: running.url, apiKey: key.key as string, maxRetries: 0 });
    const chat = () =>
      client.chat.completions
        .create({ model: 'cached-4o', messages: [{ role: 'user', content: 'cache me' }] })
        .withResponse();
    expect((await chat()).response.headers.get('x-switchyard-cache')).toBe('miss');
    expect((await chat()).response.headers.get('x-switchyard-cache')).toBe('hit');
    const rows = (await admin('GET', `/requests?key=${key.id}`)).body.data as Record<string, unknown>[];
    expect(rows.map((row) => row.cache_hit).sort()).toEqual([false, true]);
    expect(rows.find((row) => row.cache_hit)).toMatchObject({
      prompt_tokens: 0,
      completion_tokens: 0,
      cost_usd: 0,
      attempts: 0,
      status: 200,
    });
    expect(rows.find((row) => !row.cache_hit)?.cost_usd).toBeGreaterThan(0);
    expect((await admin('GET', `/usage?key=${key.id}`)).body.data).toMatchObject([{ requests: 2, cache_hits: 1 }]);
  });

  it('logs how many ledger rows it dropped past store.ledger_buffer, never the rows', async () => {
    const logs: string[] = [];
    const small = await startServer(
      parseConfig(
        `
keys: ["sk-static-key-for-tests-0123456789"]
store: { postgres: "${postgres.url()}", timeout_ms: 1000, ledger_buffer: 3 }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai }
`,
        'test.yaml',
        {},
      ),
      { logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }) },
    );
    try {
      await postgres.stop();
      const client = new OpenAI({ baseURL: small.url, apiKey: 'sk-static-key-for-tests-0123456789', maxRetries: 0 });
      for (let i = 0; i < 7; i++)
        await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      await expect.poll(() => small.accounts?.ledger.dropped, { timeout: 5_000 }).toBe(4);
      expect(small.accounts?.ledger.pending).toBe(3);
      await expect
        .poll(() => logs.find((l) => l.includes('ledger row(s) dropped')), { timeout: 15_000 })
        .toContain('"dropped":4');
      expect(logs.join('\n')).not.toContain('switchyard-test');
      await postgres.start();
      await expect.poll(() => small.accounts?.ledger.pending, { timeout: 15_000 }).toBe(0);
    } finally {
      await small.close();
    }
  });
});
