import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

// Issue #38, item 9: without accounts (no `admin`/`store`), non-streamed answers carried no `x-switchyard-cost-usd`,
// whether the model was priced in the config or by the price catalogue. They now carry it, from the answer's usage.
const KEY = 'sk-switchyard-cost-0123456789';
let upstream: MockUpstream;
let running: RunningServer;

beforeAll(async () => {
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-up-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: priced, provider: openai, upstream: gpt-4o-mini, price: { input: 1, output: 2 } }
  - { id: catalogued, provider: openai, upstream: gpt-4o-mini }
  - { id: unpriced, provider: openai, upstream: my-own-finetune-xyz }
`);
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

const client = () => new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0, timeout: 10_000 });
async function ask(model: string) {
  const { data, response } = await client()
    .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
    .withResponse();
  return { usage: data.usage!, cost: response.headers.get('x-switchyard-cost-usd') };
}

describe('cost of non-streamed answers without accounts', () => {
  it('is in x-switchyard-cost-usd at the configured price', async () => {
    const { usage, cost } = await ask('priced');
    console.log(`priced: ${usage.prompt_tokens} + ${usage.completion_tokens} tokens, x-switchyard-cost-usd ${cost}`);
    expect(cost).toBe(((usage.prompt_tokens * 1 + usage.completion_tokens * 2) / 1e6).toFixed(8));
  });

  it("is in x-switchyard-cost-usd at the catalogue's price", async () => {
    const { usage, cost } = await ask('catalogued');
    console.log(
      `catalogued: ${usage.prompt_tokens} + ${usage.completion_tokens} tokens, x-switchyard-cost-usd ${cost}`,
    );
    expect(Number(cost)).toBeGreaterThan(0);
  });

  it('is absent for a model with no known price', async () => {
    expect((await ask('unpriced')).cost).toBeNull();
  });
});
