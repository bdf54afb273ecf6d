import { type MockUpstream, testkitFixtures } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// Catalogue prices beyond input and output reach the cost header and the ledger: Claude's cache reads and writes
// (through chat and through the Messages pass-through) and tiered prices above 200,000 prompt tokens (Gemini 2.5 Pro,
// Claude Sonnet 4.5). Prices: the pinned @pydantic/genai-prices catalogue, USD per million tokens.
const MASTER = 'sk-master-key-for-tiers-0123456789';
const KEY = 'sk-static-key-for-tiers-0123456789';
const fixtures = testkitFixtures();
const SONNET_45 = { input: 3, cached_input: 0.3, cache_write: 3.75, output: 15 };
const SONNET_45_ABOVE_200K = { input: 6, cached_input: 0.6, cache_write: 7.5, output: 22.5 };
const GEMINI_25_PRO = { input: 1.25, output: 10 };
const GEMINI_25_PRO_ABOVE_200K = { input: 2.5, output: 15 };

let upstream: MockUpstream;
let running: RunningServer;
let client: OpenAI;
let anthropicUsage: Record<string, number>;
let geminiUsage: Record<string, number>;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /v1/messages': () => ({
            json: { ...fixtures.json<Record<string, unknown>>('anthropic/anthropic-text.json'), usage: anthropicUsage },
          }),
          'POST /v1beta/models/*:generateContent': () => ({
            json: { ...fixtures.json<Record<string, unknown>>('google/google-text.json'), usageMetadata: geminiUsage },
          }),
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-tiers-0000, base_url: "${url.upstream}" }
  google: { adapter: google, api_key: AIza-tiers-0000, base_url: "${url.upstream}/v1beta" }
models:
  - { id: sonnet, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
  - { id: pro, provider: google, upstream: gemini-2.5-pro }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      running,
      openai: client,
    } = gateway),
);

async function chatCost(model: string): Promise<{ cost: number; source: string | null; id: string | null }> {
  const { response } = await client.chat.completions
    .create({ model, messages: [{ role: 'user', content: 'hi' }] })
    .withResponse();
  return {
    cost: Number(response.headers.get('x-switchyard-cost-usd')),
    source: response.headers.get('x-switchyard-price-source'),
    id: response.headers.get('x-request-id'),
  };
}
async function messagesCost(model: string): Promise<{ cost: number; source: string | null; id: string | null }> {
  const response = await fetch(`${running.url}/messages`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status).toBe(200);
  return {
    cost: Number(response.headers.get('x-switchyard-cost-usd')),
    source: response.headers.get('x-switchyard-price-source'),
    id: response.headers.get('x-request-id'),
  };
}
async function ledgerCost(requestId: string | null): Promise<number | undefined> {
  const origin = running.url.replace(/\/v1$/, '');
  const response = await fetch(`${origin}/admin/requests?limit=100`, {
    headers: { authorization: `Bearer ${MASTER}` },
  });
  return ((await response.json()) as { data: { request_id: string; cost_usd: number }[] }).data.find(
    (row) => row.request_id === requestId,
  )?.cost_usd;
}

describe('catalogue prices for cache reads, cache writes and tiers', () => {
  it('prices Claude cache reads and writes at the catalogue prices, through chat and through the Messages pass-through', async () => {
    anthropicUsage = {
      input_tokens: 1000,
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 500,
      output_tokens: 100,
    };
    const expected =
      (1000 * SONNET_45.input + 2000 * SONNET_45.cached_input + 500 * SONNET_45.cache_write + 100 * SONNET_45.output) /
      1e6;
    const chat = await chatCost('sonnet');
    expect(chat.source).toBe('catalog');
    expect(chat.cost).toBeCloseTo(expected, 10);
    const passed = await messagesCost('sonnet');
    expect(passed.source).toBe('catalog');
    expect(passed.cost).toBeCloseTo(expected, 10);
    await expect.poll(() => ledgerCost(passed.id)).toBeCloseTo(expected, 10);
    await expect.poll(() => ledgerCost(chat.id)).toBeCloseTo(expected, 10);
  });

  it('prices every token at the higher tier once the prompt passes 200,000 tokens (cache reads included)', async () => {
    anthropicUsage = {
      input_tokens: 150_000,
      cache_read_input_tokens: 60_000,
      cache_creation_input_tokens: 0,
      output_tokens: 100,
    };
    const above =
      (150_000 * SONNET_45_ABOVE_200K.input +
        60_000 * SONNET_45_ABOVE_200K.cached_input +
        100 * SONNET_45_ABOVE_200K.output) /
      1e6;
    const { cost, id } = await messagesCost('sonnet');
    expect(cost).toBeCloseTo(above, 10);
    await expect.poll(() => ledgerCost(id)).toBeCloseTo(above, 10);

    geminiUsage = { promptTokenCount: 250_000, candidatesTokenCount: 100, totalTokenCount: 250_100 };
    expect((await chatCost('pro')).cost).toBeCloseTo(
      (250_000 * GEMINI_25_PRO_ABOVE_200K.input + 100 * GEMINI_25_PRO_ABOVE_200K.output) / 1e6,
      10,
    );
    geminiUsage = { promptTokenCount: 150_000, candidatesTokenCount: 100, totalTokenCount: 150_100 };
    expect((await chatCost('pro')).cost).toBeCloseTo(
      (150_000 * GEMINI_25_PRO.input + 100 * GEMINI_25_PRO.output) / 1e6,
      10,
    );
  });

  it('counts the same catalogue cost in switchyard_cost_usd_total', async () => {
    const origin = running.url.replace(/\/v1$/, '');
    const scrape = async () => {
      const text = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${MASTER}` } })).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('switchyard_cost_usd_total{') && l.includes('model="pro"'));
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await scrape();
    geminiUsage = { promptTokenCount: 250_000, candidatesTokenCount: 100, totalTokenCount: 250_100 };
    const { cost } = await chatCost('pro');
    expect(cost).toBeGreaterThan(0);
    await expect.poll(async () => (await scrape()) - before).toBeCloseTo(cost, 10);
  });
});
