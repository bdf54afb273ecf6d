import type { MockUpstream } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayWithUpstreams, startGatewayWithUpstreams } from '../helpers/gateway-with-upstreams.js';
import { scriptedAnthropicRoute, scriptedChatRoute } from '../helpers/scripted-agent-upstream.js';
import { MASTER } from './accounts-gateway.js';

// Attack (issue #38 item 2): POST /v1/messages/count_tokens skipped admission. A key with rpm_limit 2 and
// models ["cheap"] got 5 of 5 answers for model "expensive", and no ledger row; it also validated less than
// /v1/messages (empty messages, 10,001 messages, unknown block types were accepted). It is now a call like any
// other: the key's allow-list and rpm (not tpm or budget: it costs nothing), a ledger row of its own at cost 0, the same
// validation, errors in Anthropic's shape.

const BASH = { tool: 'Bash', arguments: { command: 'ls' } };
let gateway: GatewayWithUpstreams<'openai' | 'anthropic'>;
let anthropicUpstream: MockUpstream;
beforeAll(async () => {
  gateway = await startGatewayWithUpstreams({
    upstreams: {
      openai: { routes: { 'POST /v1/chat/completions': scriptedChatRoute(BASH) } },
      anthropic: {
        routes: {
          'POST /v1/messages': scriptedAnthropicRoute(BASH),
          // Anthropic's own counter, scripted: a token per 4 bytes of the body.
          'POST /v1/messages/count_tokens': (request) => ({
            json: { input_tokens: Math.ceil(request.bodyText.length / 4) },
          }),
        },
      },
    },
    config: (url) => `
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${url.openai}/v1" }
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-000000, base_url: "${url.anthropic}" }
models:
  - { id: cheap, provider: openai, upstream: gpt-cheap, price: { input: 0.1, output: 0.1 } }
  - { id: expensive, provider: openai, upstream: gpt-expensive, price: { input: 100, output: 400 } }
  - { id: claude, provider: anthropic, upstream: claude-opus-5-5, price: { input: 100, output: 400 } }
routing: { max_retries: 0 }
`,
  });
  anthropicUpstream = gateway.upstreams.anthropic;
});
afterAll(() => gateway?.close());

const admin = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${gateway.origin}/admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
  });
  return (await res.json()) as Record<string, unknown>;
};
const createKey = async (input: Record<string, unknown>) =>
  (await admin('/keys', { method: 'POST', body: JSON.stringify(input) })) as { id: string; key: string };
const countTokens = async (key: string, body: unknown) => {
  const res = await fetch(`${gateway.origin}/v1/messages/count_tokens`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { input_tokens?: number; type?: string; error?: { type: string; message: string } },
  };
};
const rowsOf = async (keyId: string) =>
  (await admin(`/requests?key=${keyId}&limit=100`)).data as {
    status: number;
    model: string;
    cost_usd: number;
    prompt_tokens: number;
    operation: string | null;
  }[];
const hello = { messages: [{ role: 'user', content: 'Hello there' }] };

describe('security: count_tokens is a call like any other', () => {
  it('refuses a model outside the allow-list and rate-limits at rpm, each call with a ledger row (the reproduction)', async () => {
    const { id, key } = await createKey({ name: 'cheap-only', rpm_limit: 2, models: ['cheap'] });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await countTokens(key, { model: 'expensive', ...hello }));
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403]);
    expect(answers[0]!.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push(await countTokens(key, { model: 'cheap', ...hello }));
    expect(allowed.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(allowed[0]!.body.input_tokens).toBeGreaterThan(0);
    expect(allowed[2]!.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    const rows = await rowsOf(id);
    expect(rows.map((r) => r.status).sort()).toEqual([200, 200, 403, 403, 403, 403, 403, 429]);
    expect(rows.filter((r) => r.status === 200)).toEqual([
      expect.objectContaining({ model: 'cheap', cost_usd: 0, prompt_tokens: 0, operation: 'anthropicCountTokens' }),
      expect.objectContaining({ model: 'cheap', cost_usd: 0, prompt_tokens: 0, operation: 'anthropicCountTokens' }),
    ]);
  });

  it('reserves no tokens and no budget: with the budget and tpm spent by a chat call, it still counts, at cost 0', async () => {
    const { id, key } = await createKey({ name: 'no-budget', budget_usd: 0.000001, tpm_limit: 1 });
    const chat = () =>
      gateway
        .openaiWithKey(key)
        .chat.completions.create({ model: 'expensive', messages: [{ role: 'user', content: 'hi' }] });
    await chat();
    await expect(chat()).rejects.toMatchObject({ status: 429 });
    expect(await countTokens(key, { model: 'expensive', ...hello })).toMatchObject({ status: 200 });
    expect(await countTokens(key, { model: 'expensive', ...hello })).toMatchObject({ status: 200 });
    const counted = (await rowsOf(id)).filter((r) => r.operation === 'anthropicCountTokens');
    expect(counted.map((r) => [r.status, r.cost_usd])).toEqual([
      [200, 0],
      [200, 0],
    ]);
  });

  it("asks an Anthropic deployment's own counter, admitted and booked at cost 0 although the model is priced", async () => {
    const { id, key } = await createKey({ name: 'claude', models: ['claude'] });
    const before = anthropicUpstream.requestsTo('POST /v1/messages/count_tokens').length;
    const counted = await countTokens(key, { model: 'claude', ...hello });
    expect(counted).toMatchObject({ status: 200, body: { input_tokens: expect.any(Number) } });
    const sent = anthropicUpstream.requestsTo('POST /v1/messages/count_tokens');
    expect(sent).toHaveLength(before + 1);
    expect(counted.body.input_tokens).toBe(Math.ceil(sent.at(-1)!.bodyText.length / 4));
    expect(await rowsOf(id)).toEqual([
      expect.objectContaining({ status: 200, cost_usd: 0, operation: 'anthropicCountTokens' }),
    ]);
  });

  it('validates as /v1/messages does: empty messages, 10,001 messages, unknown block types are 400s in Anthropic shape', async () => {
    const { id, key } = await createKey({ name: 'validation' });
    const many = Array.from({ length: 10_001 }, () => ({ role: 'user', content: 'x' }));
    const bodies = [
      { model: 'cheap', messages: [] },
      { model: 'cheap', messages: many },
      { model: 'cheap', messages: [{ role: 'user', content: [{ type: 'nonsense', text: 'x' }] }] },
      { model: 'cheap', messages: [{ role: 'robot', content: 'x' }] },
    ];
    for (const body of bodies) {
      const answer = await countTokens(key, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('messages') },
      });
    }
    // A system entry inside messages (Claude Code 2.1) is accepted, as on /v1/messages.
    expect(
      await countTokens(key, {
        model: 'cheap',
        messages: [
          { role: 'user', content: 'a' },
          { role: 'system', content: 'b' },
        ],
      }),
    ).toMatchObject({ status: 200 });
    expect((await rowsOf(id)).map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
  });
});
