import { type MockUpstream, testkitFixtures } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const MASTER = 'sk-master-key-for-catalog-0123456789';
const KEY = 'sk-static-key-for-catalog-0123456789';
// The recorded OpenAI answer with a usage that has prompt-cache reads, as OpenAI reports them.
const recorded = testkitFixtures().json<Record<string, unknown>>('openai/openai-text.json');
const USAGE = {
  prompt_tokens: 1000,
  completion_tokens: 100,
  total_tokens: 1100,
  prompt_tokens_details: { cached_tokens: 400 },
};
// OpenAI's published gpt-4o-mini prices, USD per million tokens (what the pinned catalogue holds).
const GPT_4O_MINI = { input: 0.15, cached_input: 0.075, output: 0.6 };

let upstream: MockUpstream;
let running: RunningServer;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /v1/chat/completions': { json: { ...recorded, usage: USAGE } },
          'POST /ollama/v1/chat/completions': { json: { ...recorded, usage: USAGE } },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-openai-catalog-000000, base_url: "${url.upstream}/v1" }
  local: { adapter: ollama, base_url: "${url.upstream}/ollama/v1" }
models:
  - { id: priced, provider: openai, upstream: gpt-4o-mini, price: { input: 1, output: 2, cached_input: 0.5 } }
  - { id: catalogued, provider: openai, upstream: gpt-4o-mini }
  - { id: unknown, provider: openai, upstream: my-finetune-that-no-catalogue-knows }
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

async function call(model: string): Promise<{ cost: number; source: string | null; id: string }> {
  const { data, response } = await client.chat.completions
    .create({ model, messages: [{ role: 'user', content: 'hi' }] })
    .withResponse();
  return {
    cost: Number(response.headers.get('x-switchyard-cost-usd')),
    source: response.headers.get('x-switchyard-price-source'),
    id: response.headers.get('x-request-id') ?? data.id,
  };
}

type Row = { request_id: string; model: string; cost_usd: number; price_source: string };
async function ledger(): Promise<Row[]> {
  const origin = running.url.replace(/\/v1$/, '');
  const response = await fetch(`${origin}/admin/requests?limit=100`, {
    headers: { authorization: `Bearer ${MASTER}` },
  });
  return ((await response.json()) as { data: Row[] }).data;
}

describe('prices out of the box', () => {
  it('prices a model without config price from the catalogue, cached input at its own price', async () => {
    const { cost, source } = await call('catalogued');
    expect(source).toBe('catalog');
    expect(cost).toBeCloseTo(
      (600 * GPT_4O_MINI.input + 400 * GPT_4O_MINI.cached_input + 100 * GPT_4O_MINI.output) / 1e6,
      8,
    );
  });

  it('lets the config price win', async () => {
    const { cost, source } = await call('priced');
    expect(source).toBe('config');
    expect(cost).toBeCloseTo((600 * 1 + 400 * 0.5 + 100 * 2) / 1e6, 8);
  });

  it('costs 0 with source none for a model no catalogue knows, and for a self-hosted server', async () => {
    expect(await call('unknown')).toMatchObject({ cost: 0, source: 'none' });
    expect(await call('local/gpt-4o-mini')).toMatchObject({ cost: 0, source: 'none' });
  });

  it('says in each ledger row where its price came from', async () => {
    await expect.poll(async () => (await ledger()).length).toBeGreaterThanOrEqual(4);
    const rows = await ledger();
    const byModel = (model: string) => rows.find((r) => r.model === model)!;
    expect(byModel('catalogued')).toMatchObject({
      price_source: 'catalog',
      cost_usd: expect.closeTo((600 * 0.15 + 400 * 0.075 + 100 * 0.6) / 1e6, 10),
    });
    expect(byModel('priced')).toMatchObject({ price_source: 'config' });
    expect(byModel('unknown')).toMatchObject({ price_source: 'none', cost_usd: 0 });
    expect(byModel('local/gpt-4o-mini')).toMatchObject({ price_source: 'none', cost_usd: 0 });
  });
});
