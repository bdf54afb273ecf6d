import { type MockUpstream, openaiReplayRoutes, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const MASTER = 'sk-master-key-console-api-0123456789';
const STATIC = 'sk-static-key-console-api-0123456789';
const PRICE = { input: 2, output: 8 }; // USD per million tokens
const recorded = testkitFixtures().json<{ usage: { prompt_tokens: number; completion_tokens: number } }>(
  'openai/openai-text.json',
).usage;

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: { routes: openaiReplayRoutes() },
    },
    config: (url) => `
keys: ["${STATIC}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${url.upstream}/v1" }
  dead: { adapter: openai, api_key: sk-dead-000000, base_url: "http://127.0.0.1:1/v1" }
models:
  - { id: gpt-4o, provider: openai, price: { input: ${PRICE.input}, output: ${PRICE.output} } }
  - id: pool
    strategy: round-robin
    fallbacks: [gpt-4o]
    targets:
      - { provider: dead, upstream: gpt-4.1-nano, weight: 1 }
      - { provider: openai, upstream: gpt-4.1-nano, weight: 3, price: { input: 1, output: 1 } }
routing: { max_retries: 0, cooldown: { failures: 1, seconds: 60 } }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      running,
      origin,
    } = gateway),
);

async function admin<T = Record<string, unknown>>(
  path: string,
  init: RequestInit = {},
  key = MASTER,
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(`${origin}/admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

type Row = {
  request_id: string;
  key_id: string;
  key_name: string | null;
  model: string;
  status: number;
  total_tokens: number;
  cost_usd: number;
  created_at: number;
};
type Page = { object: string; data: Row[]; has_more: boolean; next_before: string | null };

const chat = (key: string, model = 'gpt-4o') =>
  new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 }).chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'hi' }],
  });

describe('GET /admin/requests', () => {
  it('lists ledger rows newest first with the key name, filtered by key, model and status, paged by next_before', async () => {
    const { body: key } = await admin<{ id: string; key: string }>('/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'requests-test' }),
    });
    for (let i = 0; i < 3; i++) await chat(key.key);
    await expect(chat(key.key, 'no-such-model')).rejects.toMatchObject({ status: 404 });
    await chat(STATIC);
    await expect.poll(async () => (await admin<Page>(`/requests?key=${key.id}`)).body.data.length).toBe(4);

    const all = (await admin<Page>(`/requests?key=${key.id}`)).body;
    expect(all).toMatchObject({ object: 'list', has_more: false, next_before: null });
    expect(all.data.map((r) => r.status)).toEqual([404, 200, 200, 200]);
    expect(all.data[1]).toMatchObject({
      key_id: key.id,
      key_name: 'requests-test',
      model: 'gpt-4o',
      provider: 'openai',
      total_tokens: recorded.prompt_tokens + recorded.completion_tokens,
    });
    expect(all.data[1]!.cost_usd).toBeCloseTo(
      (recorded.prompt_tokens * PRICE.input + recorded.completion_tokens * PRICE.output) / 1e6,
      10,
    );
    const times = all.data.map((r) => r.created_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    expect((await admin<Page>(`/requests?key=${key.id}&status=error`)).body.data.map((r) => r.model)).toEqual([
      'no-such-model',
    ]);
    expect((await admin<Page>(`/requests?key=${key.id}&status=200`)).body.data).toHaveLength(3);
    expect((await admin<Page>(`/requests?key=${key.id}&status=4xx`)).body.data).toHaveLength(1);
    expect((await admin<Page>(`/requests?key=${key.id}&model=no-such-model`)).body.data).toHaveLength(1);
    expect((await admin<Page>('/requests?key=static')).body.data[0]).toMatchObject({
      key_id: 'static',
      key_name: null,
    });

    const page1 = (await admin<Page>(`/requests?key=${key.id}&limit=3`)).body;
    expect(page1).toMatchObject({ has_more: true, next_before: expect.any(String) });
    const page2 = (
      await admin<Page>(`/requests?key=${key.id}&limit=3&before=${encodeURIComponent(page1.next_before!)}`)
    ).body;
    expect(page2).toMatchObject({ has_more: false, next_before: null });
    expect([...page1.data, ...page2.data].map((r) => r.request_id)).toEqual(all.data.map((r) => r.request_id));
    const older = (
      await admin<Page>(`/requests?key=${key.id}&before=${new Date(all.data.at(-1)!.created_at + 1).toISOString()}`)
    ).body.data;
    expect(older.map((r) => r.request_id)).toContain(all.data.at(-1)!.request_id);
  });

  it('answers 400 naming a bad parameter, and 403 to a non-master key', async () => {
    expect((await admin<{ error: { param: string } }>('/requests?limit=0')).body.error.param).toBe('limit');
    expect((await admin<{ error: { param: string } }>('/requests?limit=1001')).body.error.param).toBe('limit');
    expect((await admin<{ error: { param: string } }>('/requests?status=teapot')).body.error.param).toBe('status');
    expect((await admin<{ error: { param: string } }>('/requests?before=yesterday')).body.error.param).toBe('before');
    expect((await admin('/requests', {}, STATIC)).status).toBe(403);
    expect((await admin('/requests', {}, 'sk-wrong-master-key-000000000')).status).toBe(401);
  });
});

describe('GET /admin/models and /admin/health', () => {
  it('lists configured models with strategy, fallbacks and targets', async () => {
    const { body } = await admin<{ data: unknown[] }>('/models');
    expect(body.data).toEqual([
      {
        id: 'gpt-4o',
        strategy: 'weighted',
        fallbacks: [],
        max_retries: 0,
        timeouts: {},
        price: PRICE,
        targets: [
          { deployment: 'openai/gpt-4o', provider: 'openai', upstream_model: 'gpt-4o', weight: 1, price: PRICE },
        ],
      },
      {
        id: 'pool',
        strategy: 'round-robin',
        fallbacks: ['gpt-4o'],
        max_retries: 0,
        timeouts: {},
        price: null,
        targets: [
          { deployment: 'dead/gpt-4.1-nano', provider: 'dead', upstream_model: 'gpt-4.1-nano', weight: 1, price: null },
          {
            deployment: 'openai/gpt-4.1-nano',
            provider: 'openai',
            upstream_model: 'gpt-4.1-nano',
            weight: 3,
            price: { input: 1, output: 1 },
          },
        ],
      },
    ]);
  });

  it('shows each deployment live: latency after a success, cooling down after a failure', async () => {
    type Health = {
      deployment: string;
      models: string[];
      in_flight: number;
      latency_ms_avg: number | null;
      consecutive_failures: number;
      cooling_down: boolean;
      cooling_down_until: string | null;
    };
    const before = (await admin<{ data: Health[] }>('/health')).body.data;
    expect(before.map((h) => h.deployment).sort()).toEqual([
      'dead/gpt-4.1-nano',
      'openai/gpt-4.1-nano',
      'openai/gpt-4o',
    ]);
    expect(before.find((h) => h.deployment === 'dead/gpt-4.1-nano')).toMatchObject({
      models: ['pool'],
      in_flight: 0,
      cooling_down: false,
      cooling_down_until: null,
    });
    // Round-robin starts at the dead target; it fails (cooldown after 1 failure) and the other target answers.
    for (let i = 0; i < 2; i++) await chat(STATIC, 'pool');
    const after = new Map((await admin<{ data: Health[] }>('/health')).body.data.map((h) => [h.deployment, h]));
    const dead = after.get('dead/gpt-4.1-nano')!;
    expect(dead.cooling_down).toBe(true);
    expect(Date.parse(dead.cooling_down_until!)).toBeGreaterThan(Date.now() + 50_000);
    expect(after.get('openai/gpt-4.1-nano')).toMatchObject({
      cooling_down: false,
      consecutive_failures: 0,
      in_flight: 0,
      latency_ms_avg: expect.any(Number),
    });
  });
});

describe('GET /admin/keys', () => {
  it("shows each key's spend in its current budget period", async () => {
    const { body: key } = await admin<{ id: string; key: string }>('/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'spender', budget_usd: 5, budget_period: 'day' }),
    });
    await chat(key.key);
    const cost = (recorded.prompt_tokens * PRICE.input + recorded.completion_tokens * PRICE.output) / 1e6;
    await expect
      .poll(
        async () =>
          (await admin<{ data: { id: string; spend_usd: number }[] }>('/keys')).body.data.find((k) => k.id === key.id)
            ?.spend_usd,
      )
      .toBeCloseTo(cost, 10);
  });
});

describe('POST /admin/playground/chat/completions', () => {
  it('streams with the master key and says which deployment served it; a non-master key gets 403', async () => {
    const playground = new OpenAI({ baseURL: `${origin}/admin/playground`, apiKey: MASTER, maxRetries: 0 });
    const { data: stream, response } = await playground.chat.completions
      .create({
        model: 'gpt-4o',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      })
      .withResponse();
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text.length).toBeGreaterThan(10);
    expect(usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(response.headers.get('x-switchyard-upstream-model')).toBe('gpt-4o');
    const other = new OpenAI({ baseURL: `${origin}/admin/playground`, apiKey: STATIC, maxRetries: 0 });
    await expect(
      other.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe('/ui', () => {
  it('serves the built console with a strict Content-Security-Policy and no inline script', async () => {
    const res = await fetch(`${origin}/ui/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/ui\/assets\/[^"]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    const script = scripts[0]![1]!.match(/src="([^"]+)"/)![1]!;
    const asset = await fetch(`${origin}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${origin}/ui`, { redirect: 'manual' })).status).toBeLessThan(400);
  });

  it('is not served without a master key, nor with admin.console: false', async () => {
    const withoutMaster = await startGatewayFromYaml(`
keys: ["${STATIC}"]
store: { sqlite: ":memory:" }
server: { port: 0 }
providers: { openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" } }
log: { level: silent }
`);
    const disabled = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}", console: false }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers: { openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" } }
log: { level: silent }
`);
    try {
      for (const server of [withoutMaster, disabled])
        expect((await fetch(server.url.replace(/\/v1$/, '/ui/'))).status).toBe(404);
    } finally {
      await withoutMaster.close();
      await disabled.close();
    }
  });
});
