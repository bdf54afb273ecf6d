import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, testkitFixtures } from '@switchyard/testkit';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { multiProviderRoutes, multiProviderYaml } from './helpers/multi-provider-upstream.js';
import { recordedOpenAIStreamUsage as recordedStream } from './helpers/recorded-openai.js';
import { createAdminKey } from './helpers/admin-keys.js';

const MASTER = 'sk-master-front-doors-0123456789';
const GPT_PRICE = { input: 0.15, output: 0.6 }; // USD per million tokens, as in multiProviderYaml
const recorded = testkitFixtures().json<{ usage: { prompt_tokens: number; completion_tokens: number } }>(
  'openai/openai-text.json',
).usage;
const cost = (u: { prompt_tokens: number; completion_tokens: number }) =>
  (u.prompt_tokens * GPT_PRICE.input + u.completion_tokens * GPT_PRICE.output) / 1e6;

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;

const dir = mkdtempSync(join(tmpdir(), 'switchyard-doors-'));
useGatewayWithUpstreams(
  {
    upstreams: { multi: { routes: multiProviderRoutes() } },
    config: (url) => `
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'gateway.db')}" }
server: { port: 0 }
${multiProviderYaml(url.multi).replace('models:\n', `  dead: { adapter: openai, api_key: sk-dead-0000, base_url: "http://127.0.0.1:1/v1" }\nmodels:\n  - { id: flaky, provider: dead, upstream: gpt-dead, fallbacks: [gpt] }\n`)}`,
  },
  (gateway) =>
    ({
      upstreams: { multi: upstream },
      running,
      origin,
    } = gateway),
);

const createKey = (body: Record<string, unknown>) => createAdminKey(origin, MASTER, body);
async function usageOf(
  id: string,
): Promise<{ requests: number; prompt_tokens: number; completion_tokens: number; cost_usd: number } | undefined> {
  const res = await fetch(`${origin}/admin/usage?key=${id}`, { headers: { authorization: `Bearer ${MASTER}` } });
  return (
    (await res.json()) as {
      data: { requests: number; prompt_tokens: number; completion_tokens: number; cost_usd: number }[];
    }
  ).data[0];
}
const openai = (key: string) => new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
const anthropic = (key: string) => new Anthropic({ baseURL: origin, apiKey: key, maxRetries: 0 });
const CLAUDE_PRICE = { input: 3, output: 15 }; // USD per million tokens, as in multiProviderYaml
const claudeText = testkitFixtures().json<{ usage: { input_tokens: number; output_tokens: number } }>(
  'anthropic/anthropic-text.json',
).usage;

describe('the Responses API with accounts', () => {
  it('applies a virtual key requests-per-minute limit', async () => {
    const { key } = await createKey({ name: 'rpm', rpm_limit: 1 });
    await openai(key).responses.create({ model: 'gpt', input: 'one' });
    await expect(openai(key).responses.create({ model: 'gpt', input: 'two' })).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
    });
  });

  it('falls back to the next model when the first one fails', async () => {
    const { key } = await createKey({ name: 'fallback' });
    const { data, response } = await openai(key).responses.create({ model: 'flaky', input: 'hi' }).withResponse();
    expect(response.headers.get('x-switchyard-model')).toBe('gpt');
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(data.model).toBe('flaky');
    expect(data.status).toBe('completed');
  });

  it('writes ledger rows with tokens and cost for plain and streamed responses', async () => {
    const { id, key } = await createKey({ name: 'ledger' });
    const { response } = await openai(key)
      .responses.create({ model: 'gpt', input: 'Invent a holiday.' })
      .withResponse();
    expect(Number(response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(cost(recorded), 8);
    await openai(key).responses.stream({ model: 'gpt', input: 'Invent a holiday.' }).finalResponse();
    await expect
      .poll(() => usageOf(id))
      .toMatchObject({
        requests: 2,
        prompt_tokens: recorded.prompt_tokens + recordedStream.prompt_tokens,
        completion_tokens: recorded.completion_tokens + recordedStream.completion_tokens,
      });
    expect((await usageOf(id))!.cost_usd).toBeCloseTo(cost(recorded) + cost(recordedStream), 8);
  });

  it('keeps stored responses in the SQLite store, visible to their own virtual key only', async () => {
    const a = await createKey({ name: 'owner-a' });
    const b = await createKey({ name: 'owner-b' });
    const created = await openai(a.key).responses.create({ model: 'gemini', input: 'Remember me' });
    expect((await openai(a.key).responses.retrieve(created.id)).output_text).toBe(created.output_text);
    await expect(openai(b.key).responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await openai(a.key).responses.create({ model: 'claude', input: 'And now?', previous_response_id: created.id });
    const sent = upstream.requestsTo('POST /v1/messages').at(-1)!.json as { messages: { role: string }[] };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });
});

describe('the Messages API with accounts', () => {
  it('applies a virtual key requests-per-minute limit, answering in Anthropic shape', async () => {
    const { key } = await createKey({ name: 'rpm-messages', rpm_limit: 1 });
    await anthropic(key).messages.create({
      model: 'gpt',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'one' }],
    });
    const error = await anthropic(key)
      .messages.create({ model: 'gpt', max_tokens: 10, messages: [{ role: 'user', content: 'two' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error' },
    });
  });

  it('falls back to the next model when the first one fails', async () => {
    const { key } = await createKey({ name: 'fallback-messages' });
    const { data, response } = await anthropic(key)
      .messages.create({ model: 'flaky', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.headers.get('x-switchyard-model')).toBe('gpt');
    expect(data).toMatchObject({ type: 'message', model: 'flaky', stop_reason: 'end_turn' });
  });

  it('writes ledger rows with tokens and cost, translated and passed through to Anthropic', async () => {
    const translated = await createKey({ name: 'ledger-messages' });
    const { response } = await anthropic(translated.key)
      .messages.create({ model: 'gpt', max_tokens: 400, messages: [{ role: 'user', content: 'Invent a holiday.' }] })
      .withResponse();
    expect(Number(response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(cost(recorded), 8);
    await anthropic(translated.key)
      .messages.stream({ model: 'gpt', max_tokens: 400, messages: [{ role: 'user', content: 'Invent a holiday.' }] })
      .finalMessage();
    await expect
      .poll(() => usageOf(translated.id))
      .toMatchObject({
        requests: 2,
        prompt_tokens: recorded.prompt_tokens + recordedStream.prompt_tokens,
        completion_tokens: recorded.completion_tokens + recordedStream.completion_tokens,
      });
    expect((await usageOf(translated.id))!.cost_usd).toBeCloseTo(cost(recorded) + cost(recordedStream), 8);

    const native = await createKey({ name: 'ledger-anthropic' });
    const claudeCost =
      (claudeText.input_tokens * CLAUDE_PRICE.input + claudeText.output_tokens * CLAUDE_PRICE.output) / 1e6;
    const passed = await anthropic(native.key)
      .messages.create({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] })
      .withResponse();
    expect(Number(passed.response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(claudeCost, 8);
    const streamed = await anthropic(native.key)
      .messages.stream({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] })
      .finalMessage();
    await expect
      .poll(() => usageOf(native.id))
      .toMatchObject({
        requests: 2,
        prompt_tokens: claudeText.input_tokens + streamed.usage.input_tokens,
        completion_tokens: claudeText.output_tokens + streamed.usage.output_tokens,
      });
  });
});
