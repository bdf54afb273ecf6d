import { countTextTokens } from '@switchyard/accounts';
import { type MockUpstream, openaiReplayRoutes, sseFrames, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { recordedOpenAIStreamUsage as recordedStreamUsage } from './helpers/recorded-openai.js';

const MASTER = 'sk-master-key-for-tests-0123456789';
const STATIC = 'sk-static-key-for-tests-0123456789';
const PRICE = { input: 2, output: 8 }; // USD per million tokens
const recorded = testkitFixtures().json<{ usage: { prompt_tokens: number; completion_tokens: number } }>(
  'openai/openai-text.json',
).usage;
const cost = (u: { prompt_tokens: number; completion_tokens: number }) =>
  (u.prompt_tokens * PRICE.input + u.completion_tokens * PRICE.output) / 1e6;

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
models:
  - { id: gpt-4o, provider: openai, price: { input: ${PRICE.input}, output: ${PRICE.output} } }
  - { id: gpt-4o-mini, provider: openai, price: { input: 0.15, output: 0.6 } }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      running,
      origin,
    } = gateway),
);

async function admin(method: string, path: string, body?: unknown, key = MASTER) {
  const res = await fetch(`${origin}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { error?: Record<string, unknown> },
  };
}

const client = (key: string) => new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
const chat = (key: string, model = 'gpt-4o') =>
  client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'Invent a holiday.' }] });

describe('admin API', () => {
  it('refuses non-master keys: 401 for unknown, 403 for valid non-master keys', async () => {
    expect((await admin('GET', '/keys', undefined, 'sk-nobody-000000000000')).status).toBe(401);
    const forbidden = await admin('GET', '/keys', undefined, STATIC);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ type: 'invalid_request_error', code: 'forbidden' });
  });

  it('creates a key (secret shown once), lists, reads, updates and revokes it', async () => {
    const created = await admin('POST', '/keys', {
      name: 'team-a',
      models: ['gpt-4o*'],
      rpm_limit: 100,
      metadata: { team: 'a' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      key: expect.stringMatching(/^sk-sy-/),
      name: 'team-a',
      models: ['gpt-4o*'],
      rpm_limit: 100,
      budget_period: 'total',
    });
    const id = created.body.id as string;
    const listed = await admin('GET', '/keys');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key as string);
    expect(JSON.stringify(listed.body)).not.toContain('key_hash');
    expect((await admin('GET', `/keys/${id}`)).body).toMatchObject({ id, name: 'team-a' });
    expect((await admin('PATCH', `/keys/${id}`, { name: 'team-b', rpm_limit: null })).body).toMatchObject({
      name: 'team-b',
      rpm_limit: null,
    });
    expect((await chat(created.body.key as string)).choices).toHaveLength(1);
    expect((await admin('DELETE', `/keys/${id}`)).body.revoked_at).toEqual(expect.any(String));
    await expect(chat(created.body.key as string)).rejects.toMatchObject({ status: 401 });
    expect((await admin('GET', '/keys/key_nope')).status).toBe(404);
  });

  it('validates the create body with OpenAI-shaped errors', async () => {
    const bad = await admin('POST', '/keys', { name: 'x', rpm_limit: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ param: 'rpm_limit' });
  });
});

describe('virtual keys on the API', () => {
  it('reports the cost of a call in x-switchyard-cost-usd and writes ledger rows for plain and streamed calls', async () => {
    const { body: key } = await admin('POST', '/keys', { name: 'ledger' });
    const secret = key.key as string;
    const { response } = await chat(secret).withResponse();
    expect(Number(response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(cost(recorded), 8);
    const stream = await client(secret).chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const _chunk of stream);
    await expect
      .poll(async () => (await admin('GET', `/usage?key=${key.id}`)).body.data)
      .toEqual([
        {
          requests: 2,
          prompt_tokens: recorded.prompt_tokens + recordedStreamUsage.prompt_tokens,
          completion_tokens: recorded.completion_tokens + recordedStreamUsage.completion_tokens,
          total_tokens:
            recorded.prompt_tokens +
            recordedStreamUsage.prompt_tokens +
            recorded.completion_tokens +
            recordedStreamUsage.completion_tokens,
          cost_usd: expect.closeTo(cost(recorded) + cost(recordedStreamUsage), 8),
          cache_hits: 0,
        },
      ]);
    const own = (await (
      await fetch(`${running.url}/usage?group_by=model`, { headers: { authorization: `Bearer ${secret}` } })
    ).json()) as { data: { group: string; requests: number }[] };
    expect(own.data).toEqual([expect.objectContaining({ group: 'gpt-4o', requests: 2 })]);
  });

  it('admits no more than rpm_limit of many concurrent requests, with OpenAI rate-limit headers', async () => {
    const { body: key } = await admin('POST', '/keys', { name: 'rpm', rpm_limit: 3 });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => chat(key.key as string)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const rejected = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as InstanceType<typeof OpenAI.APIError>);
    expect(rejected.every((e) => e.status === 429 && e.code === 'rate_limit_exceeded')).toBe(true);
    expect(rejected[0]!.headers?.get('x-ratelimit-limit-requests')).toBe('3');
    expect(rejected[0]!.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
  });

  it('blocks the next call once the budget is spent', async () => {
    const { body: key } = await admin('POST', '/keys', {
      name: 'budget',
      budget_usd: cost(recorded) / 2,
      budget_period: 'day',
    });
    await chat(key.key as string);
    // The spend is settled once the answer has gone: poll instead of sleeping.
    await expect
      .poll(() =>
        chat(key.key as string).then(
          () => 'served',
          (e: { status: number; code: string }) => `${e.status} ${e.code}`,
        ),
      )
      .toBe('429 insufficient_quota');
  });

  it('answers 403 for a model the key may not use, and 401 for an expired key', async () => {
    const { body: limited } = await admin('POST', '/keys', { name: 'mini-only', models: ['gpt-4o-mini'] });
    await expect(chat(limited.key as string, 'gpt-4o')).rejects.toMatchObject({
      status: 403,
      code: 'model_not_allowed',
    });
    expect((await chat(limited.key as string, 'gpt-4o-mini')).choices).toHaveLength(1);
    const { body: expired } = await admin('POST', '/keys', {
      name: 'old',
      expires_at: new Date(Date.now() - 60_000).toISOString(),
    });
    await expect(chat(expired.key as string)).rejects.toMatchObject({ status: 401 });
  });

  it('counts tokens with a tokenizer when a streaming upstream reports no usage', async () => {
    const lines = testkitFixtures()
      .chunkLines('openai/openai-text.chunks.txt')
      .filter((l) => !l.includes('"usage":{'));
    upstream.route('POST /v1/chat/completions', { chunks: sseFrames(lines) });
    try {
      const { body: key } = await admin('POST', '/keys', { name: 'no-usage' });
      const stream = await client(key.key as string).chat.completions.create({
        model: 'gpt-4o',
        stream: true,
        messages: [{ role: 'user', content: 'Invent a holiday.' }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      const expected = await countTextTokens(text);
      expect(expected).toBeGreaterThan(100);
      await expect
        .poll(
          async () =>
            (
              (await admin('GET', `/usage?key=${key.id}`)).body.data as {
                completion_tokens: number;
                prompt_tokens: number;
              }[]
            )[0],
        )
        .toMatchObject({
          completion_tokens: expected,
          prompt_tokens: await countTextTokens('Invent a holiday.'),
        });
    } finally {
      upstream.route('POST /v1/chat/completions', openaiReplayRoutes()['POST /v1/chat/completions']!);
    }
  });

  it('keeps static config keys working, booked to the static account', async () => {
    expect((await chat(STATIC)).choices).toHaveLength(1);
    await expect
      .poll(async () => ((await admin('GET', '/usage?key=static')).body.data as { requests: number }[])[0]?.requests)
      .toBeGreaterThanOrEqual(1);
  });
});
