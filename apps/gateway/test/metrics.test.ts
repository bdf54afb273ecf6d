import { type MockUpstream, openaiReplayRoutes, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const STATIC = 'sk-switchyard-metrics-static-0123456789';
const MASTER = 'sk-switchyard-metrics-master-0123456789';
const CHAT = 'POST /v1/chat/completions';
const recorded = testkitFixtures().json<Record<string, unknown>>('openai/openai-text.json');
const failure = (status: number) => ({
  status,
  json: { error: { message: `upstream ${status}`, type: 'server_error', param: null, code: null } },
});

let primary: MockUpstream;
let backup: MockUpstream;
let running: RunningServer;
let origin: string;

/** Samples of one metric as `{labels, value}` from the Prometheus text format. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const out: { labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    out.push({ labels, value: Number(match[3]) });
  }
  return out;
}
const metricValue = (text: string, name: string, labels: Record<string, string>) =>
  samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

async function scrape(key = MASTER): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

useGatewayWithUpstreams(
  {
    upstreams: {
      primary: {},
      backup: { routes: openaiReplayRoutes() },
    },
    config: (url) => `
keys: ["${STATIC}"]
server: { port: 0 }
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
metrics: { auth: master }
providers:
  primary: { adapter: openai, api_key: sk-primary-secret-000000, base_url: "${url.primary}/v1" }
  backup: { adapter: openai, api_key: sk-backup-secret-000000, base_url: "${url.backup}/v1" }
models:
  - { id: chat, provider: primary, upstream: gpt-4.1-nano, fallbacks: [chat-backup], price: { input: 1, output: 2 } }
  - { id: chat-backup, provider: backup, upstream: gpt-4.1-nano, price: { input: 1, output: 2 } }
routing: { max_retries: 1, backoff: { base_ms: 1, max_ms: 2 }, cooldown: { failures: 2, seconds: 60 } }
`,
  },
  (gateway) =>
    ({
      upstreams: { primary, backup },
      running,
      origin,
    } = gateway),
);

describe('GET /metrics', () => {
  it('needs the master key when metrics.auth is master', async () => {
    expect((await fetch(`${origin}/metrics`)).status).toBe(401);
    expect((await scrape('sk-not-a-key-00000000000')).status).toBe(401);
    expect((await scrape(STATIC)).status).toBe(403);
  });

  it('counts a scripted set of calls (ok, retried, fallback, 429, stream) with their labels', async () => {
    const client = new OpenAI({ baseURL: running.url, apiKey: STATIC, maxRetries: 0 });
    const ask = (model: string) =>
      client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    // ok, served by the backup directly
    await ask('chat-backup');
    // retried: primary fails once, then answers
    primary.route(CHAT, [failure(500), { json: recorded }]);
    await ask('chat');
    // fallback: primary fails twice (its breaker opens), the backup answers
    primary.route(CHAT, failure(503));
    await ask('chat');
    // 429 from a key's rpm limit
    const created = await fetch(`${origin}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'metrics-rpm', rpm_limit: 1 }),
    });
    const limited = new OpenAI({
      baseURL: running.url,
      apiKey: ((await created.json()) as { key: string }).key,
      maxRetries: 0,
    });
    await limited.chat.completions.create({ model: 'chat-backup', messages: [{ role: 'user', content: 'hi' }] });
    await expect(
      limited.chat.completions.create({ model: 'chat-backup', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 429 });
    // a stream
    const stream = await client.chat.completions.create({
      model: 'chat-backup',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const _chunk of stream);

    // Request metrics are recorded when the response has ended: poll until the last one is in.
    await expect
      .poll(async () =>
        metricValue((await scrape()).text, 'switchyard_time_to_first_token_seconds_count', { model: 'chat-backup' }),
      )
      .toBe(1);
    const { status, text, type } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    const requests = (labels: Record<string, string>) =>
      metricValue(text, 'switchyard_requests_total', { operation: 'chat.completions', ...labels });
    expect(requests({ model: 'chat-backup', provider: 'backup', status: '200' })).toBe(3);
    expect(requests({ model: 'chat', provider: 'backup', status: '200' })).toBe(1);
    expect(requests({ model: 'chat', provider: 'primary', status: '200' })).toBe(1);
    expect(requests({ model: 'chat-backup', provider: 'backup', status: '429' })).toBe(1);
    expect(
      metricValue(text, 'switchyard_request_duration_seconds_count', {
        operation: 'chat.completions',
        model: 'chat',
        provider: 'primary',
      }),
    ).toBe(1);
    expect(metricValue(text, 'switchyard_inflight_requests', { operation: 'chat.completions' })).toBe(0);

    const attempts = (provider: string, outcome: string) =>
      metricValue(text, 'switchyard_upstream_attempts_total', { provider, model: 'gpt-4.1-nano', outcome });
    expect(attempts('primary', 'retry')).toBe(2);
    expect(attempts('primary', 'ok')).toBe(1);
    expect(attempts('primary', 'fallback')).toBe(1);
    expect(attempts('backup', 'ok')).toBe(4);
    expect(metricValue(text, 'switchyard_upstream_errors_total', { provider: 'primary', code: '500' })).toBe(1);
    expect(metricValue(text, 'switchyard_upstream_errors_total', { provider: 'primary', code: '503' })).toBe(2);
    expect(metricValue(text, 'switchyard_target_cooldown', { provider: 'primary', model: 'gpt-4.1-nano' })).toBe(1);
    expect(metricValue(text, 'switchyard_rate_limited_total', { kind: 'rpm' })).toBe(1);

    const usage = (recorded as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    expect(metricValue(text, 'switchyard_tokens_total', { model: 'chat', provider: 'primary', type: 'prompt' })).toBe(
      usage.prompt_tokens,
    );
    expect(
      metricValue(text, 'switchyard_tokens_total', { model: 'chat', provider: 'primary', type: 'completion' }),
    ).toBe(usage.completion_tokens);
    expect(metricValue(text, 'switchyard_cost_usd_total', { model: 'chat', provider: 'primary' })).toBeCloseTo(
      (usage.prompt_tokens * 1 + usage.completion_tokens * 2) / 1e6,
      12,
    );
    expect(
      metricValue(text, 'switchyard_tokens_total', { model: 'chat-backup', provider: 'backup', type: 'completion' }),
    ).toBeGreaterThan(0);
    expect(metricValue(text, 'process_cpu_user_seconds_total', {})).toBeGreaterThan(0);
    expect(metricValue(text, 'nodejs_eventloop_lag_seconds', {})).toBeGreaterThanOrEqual(0);

    // No key, user or prompt in any label.
    for (const secret of [STATIC, MASTER, 'sk-primary-secret', 'sk-backup-secret', 'sk-sy-', 'hi"'])
      expect(text).not.toContain(secret);
    const labelNames = new Set(
      text.split('\n').flatMap((line) => [...line.matchAll(/[{,](\w+)="/g)].map((m) => m[1]!)),
    );
    expect([...labelNames].sort()).toEqual(expect.not.arrayContaining(['key', 'user', 'prompt', 'key_id']));
  });

  it('bounds the model label: a client cannot create a series per made-up model', async () => {
    const client = new OpenAI({ baseURL: running.url, apiKey: STATIC, maxRetries: 0 });
    await expect(
      client.chat.completions.create({ model: 'no-such-model-x', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 404 });
    await expect
      .poll(async () => metricValue((await scrape()).text, 'switchyard_requests_total', { status: '404' }))
      .toBe(1);
    const { text } = await scrape();
    expect(text).not.toContain('no-such-model-x');
    expect(
      metricValue(text, 'switchyard_requests_total', {
        operation: 'chat.completions',
        model: '',
        provider: '',
        status: '404',
      }),
    ).toBe(1);
  });
});
