import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, type TestRedis, startMockUpstream, startRedis } from '@switchyard/testkit';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config/config-from-env.js';
import { parseConfig } from '../src/config/load-config.js';
import { type RunningServer, startServer } from '../src/start-server.js';
import { chatCompletion } from './helpers/chat-completion.js';
import { outcomeOf } from './helpers/replicas.js';

// Two gateway instances sharing one real redis-server (started here on a free port) and one SQLite file: limits,
// budgets and key changes hold across both (issue #13).
const MASTER = 'sk-master-key-for-shared-limits-0123';
const MAX_TOKENS = 1000;
const answer = chatCompletion('gpt-4o', 8, MAX_TOKENS);

let redis: TestRedis;
let upstream: MockUpstream;
let dir: string;
const gateways: { running: RunningServer; logs: string[] }[] = [];

async function startGateway(onError: 'open' | 'closed') {
  // timeout_ms is generous: on a loaded machine a Redis answer can take more than 300 ms, and a timed-out check would
  // admit (on_error: open) or refuse with 503 (closed). The outage below fails fast: the connection is refused.
  const yaml = `
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'shared.db')}" }
redis: { url: "${redis.url}", on_error: ${onError}, timeout_ms: 3000 }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai, price: { input: 0, output: 100 } }
routing: { max_retries: 0 }
`;
  const logs: string[] = [];
  const running = await startServer(parseConfig(yaml, 'test.yaml', {}), {
    logger: pino({ level: 'warn' }, { write: (line: string) => void logs.push(line) }),
  });
  gateways.push({ running, logs });
  return { running, logs };
}

let a: RunningServer;
let b: RunningServer;

beforeAll(async () => {
  redis = await startRedis();
  upstream = await startMockUpstream({ routes: { 'POST /v1/chat/completions': { json: answer, delayMs: 200 } } });
  dir = mkdtempSync(join(tmpdir(), 'switchyard-shared-'));
  a = (await startGateway('open')).running;
  b = (await startGateway('closed')).running;
});
afterAll(async () => {
  for (const g of gateways) await g.running.close();
  await upstream?.close();
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function admin(gateway: RunningServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${gateway.url.replace(/\/v1$/, '')}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Record<string, unknown>;
}

const client = (gateway: RunningServer, key: string) =>
  new OpenAI({ baseURL: gateway.url, apiKey: key, maxRetries: 0, timeout: 10_000 });
const ask = (gateway: RunningServer, key: string) =>
  client(gateway, key).chat.completions.create({
    model: 'gpt-4o',
    max_tokens: MAX_TOKENS,
    messages: [{ role: 'user', content: 'Tell me a story.' }],
  });
type ApiError = InstanceType<typeof OpenAI.APIError>;

/** 60 calls at once, alternating between the two gateways; `refill(perMinute)` is what a bucket refilled meanwhile. */
async function burst(key: string, count = 60) {
  const started = Date.now();
  const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => ask(i % 2 ? a : b, key)));
  const elapsed = Date.now() - started;
  return Object.assign(results, { refill: (perMinute: number) => Math.floor((elapsed * perMinute) / 60_000) });
}

describe('limits shared through Redis by two gateways', () => {
  it('rpm_limit 20: 60 concurrent calls over both admit 20 (plus what refills meanwhile), the rest 429 with OpenAI headers', async () => {
    const key = (await admin(a, 'POST', '/keys', { name: 'rpm', rpm_limit: 20 })).key as string;
    const results = await burst(key);
    // Tolerance: none beyond what the bucket refills while the burst runs (one request per 3 s).
    const admitted = results.filter((r) => r.status === 'fulfilled').length;
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThanOrEqual(20 + results.refill(20));
    const refused = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as ApiError);
    expect(refused.every((e) => e.status === 429 && e.code === 'rate_limit_exceeded')).toBe(true);
    expect(refused[0]!.headers?.get('x-ratelimit-limit-requests')).toBe('20');
    expect(refused[0]!.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused[0]!.headers?.get('x-ratelimit-reset-requests')).toMatch(/^(\d+m)?\d+s$/);
  });

  it('tpm_limit 5,000: calls reserving 1,004 tokens each fill 5,000 over both, within the tolerance', async () => {
    const key = (await admin(b, 'POST', '/keys', { name: 'tpm', tpm_limit: 5000 })).key as string;
    const results = await burst(key);
    const admitted = results.filter((r) => r.status === 'fulfilled').length;
    expect(admitted).toBeGreaterThanOrEqual(4);
    // Tolerance: the prompt estimate's error (4 tokens a call) and what the bucket refills while the burst runs.
    expect(admitted * (MAX_TOKENS + 8)).toBeLessThanOrEqual(5000 + admitted * 4 + results.refill(5000));
    const refused = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as ApiError);
    expect(refused.every((e) => e.status === 429 && e.code === 'rate_limit_exceeded')).toBe(true);
    expect(refused[0]!.headers?.get('x-ratelimit-limit-tokens')).toBe('5000');
  });

  it('a $1 budget (calls of $0.10): 10 of 60 admitted over both, the rest 429 insufficient_quota', async () => {
    const key = (await admin(a, 'POST', '/keys', { name: 'budget', budget_usd: 1 })).key as string;
    const results = await burst(key);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .every((r) => ((r as PromiseRejectedResult).reason as ApiError).code === 'insufficient_quota'),
    ).toBe(true);
  });

  it('a key created on one is usable on the other, and revoked on one is refused by the other within a second', async () => {
    const created = await admin(a, 'POST', '/keys', { name: 'moving' });
    await expect.poll(() => outcomeOf(ask(b, created.key as string)), { timeout: 1000, interval: 20 }).toBe(200);
    await admin(a, 'DELETE', `/keys/${created.id}`);
    const revokedAt = Date.now();
    await expect.poll(() => outcomeOf(ask(b, created.key as string)), { timeout: 1000, interval: 20 }).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('Redis stopped mid-run: on_error open keeps serving with one warning, closed answers 503 limits_unavailable; both recover', async () => {
    const key = (await admin(a, 'POST', '/keys', { name: 'outage', rpm_limit: 1000 })).key as string;
    expect((await ask(a, key)).choices).toHaveLength(1);
    await redis.stop();
    try {
      for (let i = 0; i < 3; i++) expect((await ask(a, key)).choices).toHaveLength(1);
      const error = (await ask(b, key).catch((e: ApiError) => e)) as ApiError;
      expect(error).toMatchObject({ status: 503, code: 'limits_unavailable', type: 'server_error' });
      const warnings = gateways[0]!.logs.filter((l) => l.includes('Redis'));
      expect(warnings).toHaveLength(1); // at most one warning a minute, however many calls failed to reach Redis
      expect(warnings.join('\n')).not.toContain(MASTER);
    } finally {
      await redis.start();
    }
    await expect.poll(() => outcomeOf(ask(b, key)), { timeout: 5000, interval: 100 }).toBe(200);
    // Limits are counted again on the open side once Redis is back.
    const limited = (await admin(a, 'POST', '/keys', { name: 'after', rpm_limit: 1 })).key as string;
    await expect.poll(() => outcomeOf(ask(a, limited)), { timeout: 5000, interval: 100 }).toBe(200);
    await expect(ask(b, limited)).rejects.toMatchObject({ status: 429 });
  });
});

describe('redis config', () => {
  it('needs redis.url for a shared cooldown, and takes REDIS_URL without a config file', async () => {
    const yaml = `keys: ["sk-test-key-0123456789"]\nproviders: { openai: { adapter: openai, api_key: sk-x-000000 } }\nrouting: { cooldown: { shared: true } }\n`;
    expect(() => parseConfig(yaml, 'x.yaml', {})).toThrow(/redis\.url/);
    expect(parseConfig(`${yaml}redis: { url: "redis://127.0.0.1:6390" }\n`, 'x.yaml', {}).redis).toEqual({
      url: 'redis://127.0.0.1:6390',
      key_prefix: 'switchyard:',
      on_error: 'open',
      timeout_ms: 500,
    });
    const config = await configFromEnv({
      SWITCHYARD_API_KEY: 'sk-test-key-0123456789',
      OPENAI_API_KEY: 'sk-x-000000',
      REDIS_URL: 'redis://127.0.0.1:6390',
    });
    expect(config.redis).toMatchObject({ url: 'redis://127.0.0.1:6390', on_error: 'open' });
  });
});
