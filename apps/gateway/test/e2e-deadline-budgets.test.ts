import { type MockUpstream, openaiReplayRoutes } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { recordedOpenAIText as recordedText } from './helpers/recorded-openai.js';

// Deadline budgets (issue #18): a stalled primary must not eat the whole deadline when a fallback remains.
const KEY = 'sk-switchyard-budgets-0123456789';
const CHAT = 'POST /v1/chat/completions';

let primary: MockUpstream;
let backup: MockUpstream;
let client: OpenAI;

// Default first-byte timeout (120 s) and retries (2): without budgets the stalled primary would take the whole 1.5 s.
useGatewayWithUpstreams(
  {
    upstreams: {
      primary: { routes: { [CHAT]: { hang: true } } },
      backup: { routes: openaiReplayRoutes() },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  primary: { adapter: openai, api_key: sk-primary-000000, base_url: "${url.primary}/v1" }
  backup: { adapter: openai, api_key: sk-backup-000000, base_url: "${url.backup}/v1" }
models:
  - { id: chat, provider: primary, upstream: gpt-4.1-nano, fallbacks: [chat-backup], timeouts: { total_ms: 1500 } }
  - { id: chat-backup, provider: backup, upstream: gpt-4.1-nano }
  - id: pair
    targets: [{ provider: primary, upstream: gpt-4.1-nano, weight: 1000 }, { provider: backup, upstream: gpt-4.1-nano, weight: 0.001 }]
routing: { backoff: { base_ms: 5, max_ms: 20 }, cooldown: { failures: 1000, seconds: 1 } }
log: { level: silent }
`,
    clientTimeoutMs: 5000,
    clearBetweenTests: true,
  },
  (gateway) =>
    ({
      upstreams: { primary, backup },
      openai: client,
    } = gateway),
);

const messages = [{ role: 'user' as const, content: 'hi' }];

describe('deadline budgets: a stalled primary leaves room for the fallback', () => {
  it('model deadline 1,500 ms: 200 from the fallback in under 1,500 ms', async () => {
    const started = Date.now();
    const { data, response } = await client.chat.completions.create({ model: 'chat', messages }).withResponse();
    const elapsed = Date.now() - started;
    expect(response.status).toBe(200);
    expect(data.choices[0]?.message.content).toBe(recordedText);
    expect(response.headers.get('x-switchyard-provider')).toBe('backup');
    expect(elapsed).toBeLessThan(1500);
    expect(primary.requestsTo(CHAT).length).toBeGreaterThanOrEqual(1);
  });

  it("model deadline 1,500 ms, streamed: the fallback's stream in under 1,500 ms", async () => {
    const started = Date.now();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'chat', stream: true, messages })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(Date.now() - started).toBeLessThan(1500);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-switchyard-provider')).toBe('backup');
    expect(text.length).toBeGreaterThan(100);
  });

  it('x-switchyard-timeout-ms: 1500 on a weighted pair: the second deployment answers in time', async () => {
    const started = Date.now();
    const { data, response } = await client.chat.completions
      .create({ model: 'pair', messages }, { headers: { 'x-switchyard-timeout-ms': '1500' } })
      .withResponse();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(data.choices[0]?.message.content).toBe(recordedText);
    expect(response.headers.get('x-switchyard-provider')).toBe('backup');
  });

  it('x-switchyard-timeout-ms: 1500, streamed, on a weighted pair', async () => {
    const started = Date.now();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'pair', stream: true, messages }, { headers: { 'x-switchyard-timeout-ms': '1500' } })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(Date.now() - started).toBeLessThan(1500);
    expect(response.headers.get('x-switchyard-provider')).toBe('backup');
    expect(text.length).toBeGreaterThan(100);
  });
});
