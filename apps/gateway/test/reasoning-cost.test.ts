import { type MockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const MASTER = 'sk-master-key-for-cost-0123456789';
const PRICE = { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75, reasoning: 20 }; // USD per million tokens
// The recorded Claude Opus 5 answer (thinking_tokens reported), with prompt caching usage as Anthropic reports it.
const recorded = testkitFixtures().json<Record<string, unknown> & { usage: Record<string, unknown> }>(
  'anthropic/anthropic-claude-opus-5-reasoning-high.1.json',
);
const usage = {
  ...recorded.usage,
  input_tokens: 51,
  cache_read_input_tokens: 10_000,
  cache_creation_input_tokens: 2_000,
};

let upstream: MockUpstream;
let running: RunningServer;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: { routes: { 'POST /v1/messages': { json: { ...recorded, usage } } } },
    },
    config: (url) => `
keys: ["sk-static-key-for-cost-0123456789"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-cost-secret-000, base_url: "${url.upstream}" }
models:
  - { id: opus, provider: anthropic, upstream: claude-opus-5, price: { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75, reasoning: 20 } }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      running,
    } = gateway),
);

describe('cost with cached, cache-write and reasoning tokens', () => {
  it('prices each kind of token at its configured price in x-switchyard-cost-usd', async () => {
    const origin = running.url.replace(/\/v1$/, '');
    const created = await fetch(`${origin}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cost' }),
    });
    const key = ((await created.json()) as { key: string }).key;
    const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
    const { data, response } = await client.chat.completions
      .create({
        model: 'opus',
        reasoning_effort: 'high',
        messages: [{ role: 'user', content: 'Roots of x^3-6x^2+11x-6?' }],
      })
      .withResponse();
    expect(data.usage).toMatchObject({
      prompt_tokens: 12_051,
      completion_tokens: 1699,
      prompt_tokens_details: { cached_tokens: 10_000, cache_write_tokens: 2_000 },
      completion_tokens_details: { reasoning_tokens: 139 },
    });
    const expected =
      (51 * PRICE.input +
        10_000 * PRICE.cached_input +
        2_000 * PRICE.cache_write +
        (1699 - 139) * PRICE.output +
        139 * PRICE.reasoning) /
      1e6;
    expect(Number(response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(expected, 8);
  });
});
