import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminKey } from './helpers/admin-keys.js';
import type { GatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import {
  KEY,
  MASTER,
  ONE_READ,
  RAW_COMPLETION,
  RECORDED_OPENAI_MODEL,
  startModelAliasesGateway,
} from './helpers/model-aliases-gateway.js';

const fixtures = testkitFixtures();

let gw: GatewayWithUpstreams<'openai' | 'anthropic'>;
beforeAll(async () => {
  gw = await startModelAliasesGateway();
});
afterAll(() => gw?.close());

const lastUpstreamModel = (name: 'openai' | 'anthropic', route: string) =>
  (gw.upstreams[name].requestsTo(route).at(-1)!.json as { model: string }).model;

describe("the answer's model is the id the client asked for", () => {
  it('chat completions (translated to Anthropic) through an alias, with the upstream id in a header', async () => {
    const { data, response } = await gw.openai.chat.completions
      .create({ model: 'claude-opus-5-5', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(data.model).toBe('claude-opus-5-5');
    expect(response.headers.get('x-switchyard-upstream-model')).toBe('claude-sonnet-4-5-20250929');
    expect(response.headers.get('x-switchyard-model')).toBe('claude-sonnet-4-5');
    expect(lastUpstreamModel('anthropic', 'POST /v1/messages')).toBe('claude-sonnet-4-5-20250929');
  });

  it('chat completions passed through to OpenAI, streamed and not, whatever id the upstream answers with', async () => {
    const completion = await gw.openai.chat.completions.create({
      model: 'sneaky',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.model).toBe('sneaky');
    expect(lastUpstreamModel('openai', 'POST /v1/chat/completions')).toBe('gpt-5');
    const stream = await gw.openai.chat.completions.create({
      model: 'sneaky',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const models = new Set<string>();
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      models.add(chunk.model);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    const recorded = fixtures
      .chunkLines('openai/openai-text.chunks.txt')
      .map((l) => JSON.parse(l) as { choices: { delta?: { content?: string } }[] });
    expect(chunks).toBe(recorded.length);
    expect(text).toBe(recorded.map((c) => c.choices[0]?.delta?.content ?? '').join(''));
    expect([...models]).toEqual(['sneaky']);
  });

  it('forwards the upstream stream byte for byte when the upstream answers with the requested id (a pattern match)', async () => {
    const res = await fetch(`${gw.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: RECORDED_OPENAI_MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(res.headers.get('x-switchyard-upstream-model')).toBe(RECORDED_OPENAI_MODEL);
    expect(await res.text()).toBe(sseFrames(fixtures.chunkLines('openai/openai-text.chunks.txt')).join(''));
  });

  it("rewrites only the model of a completion's body, byte for byte otherwise", async () => {
    const res = await fetch(`${gw.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sneaky', messages: [{ role: 'user', content: 'raw body' }] }),
    });
    expect(res.headers.get('x-switchyard-upstream-model')).toBe('gpt-5');
    const expected = RAW_COMPLETION.replace(`"model" : "${RECORDED_OPENAI_MODEL}"`, '"model" : "sneaky"');
    expect(expected).not.toBe(RAW_COMPLETION);
    expect(await res.text()).toBe(expected);
    const { data } = await gw.openai.chat.completions
      .create({ model: 'sneaky', messages: [{ role: 'user', content: 'raw body' }] })
      .withResponse();
    expect(data.model).toBe('sneaky');
    expect(data.choices[0]!.message.content).toBe('say "model": café ✓');
  });

  it("rewrites only the model text of a stream's runs of plain deltas, byte for byte otherwise", async () => {
    const res = await fetch(`${gw.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'sneaky',
        messages: [{ role: 'user', content: 'one read' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    const expected = ONE_READ.replaceAll(`"model":"${RECORDED_OPENAI_MODEL}"`, '"model":"sneaky"');
    expect(expected).not.toBe(ONE_READ);
    expect(await res.text()).toBe(expected);
  });

  it('Anthropic messages passed through, JSON and streamed, through an alias and a pattern', async () => {
    const message = await gw.anthropic.messages.create({
      model: 'claude-opus-5-5',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message.model).toBe('claude-opus-5-5');
    expect(lastUpstreamModel('anthropic', 'POST /v1/messages')).toBe('claude-sonnet-4-5-20250929');
    const stream = gw.anthropic.messages.stream({
      model: 'claude-opus-5-5',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect((await stream.finalMessage()).model).toBe('claude-opus-5-5');
    const viaPattern = await gw.anthropic.messages
      .create({ model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(viaPattern.data.model).toBe('claude-haiku-4-5');
    expect(viaPattern.response.headers.get('x-switchyard-upstream-model')).toBe('claude-haiku-4-5');
    expect(lastUpstreamModel('anthropic', 'POST /v1/messages')).toBe('claude-haiku-4-5');
  });

  it("an alias uses its target's response cache settings, and a cached answer names the alias", async () => {
    const ask = () =>
      gw.openai.chat.completions
        .create({ model: 'cached-alias', messages: [{ role: 'user', content: 'cache me' }] })
        .withResponse();
    const first = await ask();
    const second = await ask();
    expect(first.response.headers.get('x-switchyard-cache')).toBe('miss');
    expect(second.response.headers.get('x-switchyard-cache')).toBe('hit');
    expect(second.data.model).toBe('cached-alias');
  });

  it('embeddings through an alias', async () => {
    const { data, response } = await gw.openai.embeddings
      .create({ model: 'embed', input: 'x', encoding_format: 'float' })
      .withResponse();
    expect(data.model).toBe('embed');
    expect(response.headers.get('x-switchyard-upstream-model')).toBe('text-embedding-3-small');
    expect(lastUpstreamModel('openai', 'POST /v1/embeddings')).toBe('text-embedding-3-small');
  });

  it('responses (translated to Anthropic) through an alias, streamed and not', async () => {
    const response = await gw.openai.responses.create({ model: 'claude-opus-5-5', input: 'Hi' });
    expect(response.model).toBe('claude-opus-5-5');
    const stream = gw.openai.responses.stream({ model: 'claude-opus-5-5', input: 'Hi' });
    expect((await stream.finalResponse()).model).toBe('claude-opus-5-5');
  });
});

describe('key allow-lists apply to the resolved model', () => {
  const call = (key: string, model: string) =>
    gw
      .openaiWithKey(key)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => 200,
        (error: { status?: number; code?: string }) => `${error.status} ${error.code}`,
      );

  it("a key allowed only 'cheap' never reaches 'expensive' through an alias or a pattern", async () => {
    const { key } = await createAdminKey(gw.origin, MASTER, { name: 'cheap only', models: ['cheap'] });
    expect(await call(key, 'cheap')).toBe(200);
    expect(await call(key, 'sneaky')).toBe('403 model_not_allowed');
    expect(await call(key, 'expensive')).toBe('403 model_not_allowed');
    expect(await call(key, 'gpt-5')).toBe('403 model_not_allowed');
    expect(await call(key, 'openai/gpt-5')).toBe('403 model_not_allowed');
  });

  it('an allow-list glob matching an alias name does not admit its target', async () => {
    const { key } = await createAdminKey(gw.origin, MASTER, { name: 'claude only', models: ['claude-*'] });
    expect(await call(key, 'claude-free')).toBe('403 model_not_allowed');
    expect(await call(key, 'claude-opus-5-5')).toBe(200); // its target, claude-sonnet-4-5, matches claude-*
  });

  it("an entry naming the target admits its aliases, billed at the target's price", async () => {
    const { key } = await createAdminKey(gw.origin, MASTER, { name: 'expensive', models: ['expensive'] });
    expect(await call(key, 'sneaky')).toBe(200);
    const { data, response } = await gw
      .openaiWithKey(key)
      .chat.completions.create({ model: 'sneaky', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    const usage = data.usage!;
    expect(Number(response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(
      (usage.prompt_tokens * 10 + usage.completion_tokens * 40) / 1e6,
      8,
    );
  });
});

describe('GET /v1/models', () => {
  const NULL_PRICING = {
    input: null,
    output: null,
    cached_input: null,
    cache_write: null,
    reasoning: null,
    batch: null,
  };

  it('lists configured ids, aliases and what pattern providers list upstream, each with its prices (openai SDK)', async () => {
    const models: Record<string, unknown>[] = [];
    for await (const model of gw.openai.models.list()) models.push(model as unknown as Record<string, unknown>);
    const ids = models.map((m) => m.id);
    expect(ids).toEqual([
      'claude-sonnet-4-5',
      'cheap',
      'expensive',
      'text-embedding-3-small',
      'cached',
      'claude-opus-5-5',
      'claude-free',
      'sneaky',
      'embed',
      'cached-alias',
      'claude-sonnet-4-5-20250929',
      'claude-haiku-4-5-20251001',
      'openai/VAR_chat_model_id',
      'anthropic/claude-sonnet-4-5-20250929',
      'anthropic/claude-haiku-4-5-20251001',
    ]);
    const byId = Object.fromEntries(models.map((m) => [m.id, m]));
    expect(byId['claude-sonnet-4-5']).toMatchObject({
      object: 'model',
      owned_by: 'anthropic',
      // Run by the gateway (Anthropic has no batch API here): batch lines at the live price.
      pricing: {
        input: 3,
        output: 15,
        cached_input: 0.3,
        cache_write: 3,
        reasoning: 15,
        batch: { input: 3, output: 15 },
      },
      price_source: 'config',
    });
    expect(byId.sneaky).toMatchObject({
      owned_by: 'openai',
      // OpenAI's batch API runs its batches at half price.
      pricing: {
        input: 10,
        output: 40,
        cached_input: 10,
        cache_write: 10,
        reasoning: 40,
        batch: { input: 5, output: 20 },
      },
      price_source: 'config',
    });
    // A configured batch_discount wins.
    expect(byId.cheap).toMatchObject({ pricing: { input: 0.1, output: 0.4, batch: { input: 0.025, output: 0.1 } } });
    expect(byId['claude-haiku-4-5-20251001']).toMatchObject({
      owned_by: 'anthropic',
      pricing: {
        input: 1,
        output: 5,
        cached_input: 0.1,
        cache_write: 1.25,
        reasoning: 5,
        batch: { input: 1, output: 5 },
      },
      price_source: 'catalog',
    });
    expect(byId['openai/VAR_chat_model_id']).toMatchObject({ pricing: NULL_PRICING, price_source: 'none' });
  });

  it('retrieves one model with its prices (openai SDK)', async () => {
    expect(await gw.openai.models.retrieve('sneaky')).toMatchObject({
      id: 'sneaky',
      object: 'model',
      owned_by: 'openai',
      pricing: { input: 10, output: 40 },
      price_source: 'config',
    });
    expect(await gw.openai.models.retrieve('claude-haiku-4-5-20251001')).toMatchObject({
      id: 'claude-haiku-4-5-20251001',
      price_source: 'catalog',
    });
    await expect(gw.openai.models.retrieve('claude-unlisted-9')).rejects.toMatchObject({ status: 404 });
  });

  it("answers Anthropic's list shape to Anthropic clients (@anthropic-ai/sdk models.list, x-api-key)", async () => {
    const models = [];
    for await (const model of gw.anthropic.models.list({ limit: 1000 })) models.push(model);
    expect(models.map((m) => m.id)).toContain('claude-opus-5-5');
    for (const model of models) {
      expect(model.type).toBe('model');
      expect(model.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const names = Object.fromEntries(models.map((m) => [m.id, m.display_name]));
    expect(names).toMatchObject({
      // The model's display_name in config; an alias shows the name of the model it routes to.
      'claude-sonnet-4-5': 'Claude Sonnet 4.5 (EU)',
      'claude-opus-5-5': 'Claude Sonnet 4.5 (EU)',
      // The price catalogue's name of the upstream model (a pattern match, a <provider>/<id>, a configured id).
      'claude-haiku-4-5-20251001': 'Claude Haiku 4.5',
      'anthropic/claude-haiku-4-5-20251001': 'Claude Haiku 4.5',
      cheap: 'gpt 4.1 nano',
      // Neither: derived from the id.
      'openai/VAR_chat_model_id': 'VAR Chat Model Id',
    });
    expect(models.find((m) => m.id === 'claude-haiku-4-5-20251001')).toMatchObject({
      created_at: '2025-10-01T00:00:00Z',
      price_source: 'catalog',
    });
    const one = await gw.anthropic.models.retrieve('claude-opus-5-5');
    expect(one).toMatchObject({
      type: 'model',
      id: 'claude-opus-5-5',
      display_name: 'Claude Sonnet 4.5 (EU)',
      pricing: { input: 3 },
      price_source: 'config',
    });
    expect(await gw.anthropic.models.retrieve('claude-haiku-4-5-20251001')).toMatchObject({
      display_name: 'Claude Haiku 4.5',
    });
  });

  it("pages as Anthropic's API does, answers without a redirect, and refuses a wrong x-api-key in Anthropic's error shape", async () => {
    const headers = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
    const all = await fetch(`${gw.url}/models?limit=1000`, { headers, redirect: 'manual' });
    expect(all.status).toBe(200);
    const page = (await all.json()) as { data: { id: string }[]; has_more: boolean; first_id: string; last_id: string };
    expect(page).toMatchObject({
      has_more: false,
      first_id: 'claude-sonnet-4-5',
      last_id: 'anthropic/claude-haiku-4-5-20251001',
    });
    const first = (await (await fetch(`${gw.url}/models?limit=2`, { headers })).json()) as typeof page;
    expect(first).toMatchObject({ has_more: true, first_id: 'claude-sonnet-4-5', last_id: 'cheap' });
    const next = (await (await fetch(`${gw.url}/models?limit=2&after_id=cheap`, { headers })).json()) as typeof page;
    expect(next.data.map((m) => m.id)).toEqual(['expensive', 'text-embedding-3-small']);
    const wrong = await fetch(`${gw.url}/models`, {
      headers: { ...headers, 'x-api-key': 'sk-wrong-key-000000000000' },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const badLimit = await fetch(`${gw.url}/models?limit=0`, { headers });
    expect(badLimit.status).toBe(400);
    expect(await badLimit.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('answers as /openapi.json documents it, in both shapes', async () => {
    const document = (await (await fetch(`${gw.origin}/openapi.json`)).json()) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(document, 'gateway');
    const check = async (schema: string, res: Response) => {
      const validate = ajv.getSchema(`gateway#/components/schemas/${schema}`)!;
      const body = await res.json();
      expect(validate(body) ? [] : validate.errors?.slice(0, 3), schema).toEqual([]);
      return body as { data?: unknown[] };
    };
    const openai = await check(
      'ModelList',
      await fetch(`${gw.url}/models`, { headers: { authorization: `Bearer ${KEY}` } }),
    );
    expect(openai.data!.length).toBeGreaterThan(10);
    await check(
      'AnthropicModelList',
      await fetch(`${gw.url}/models?limit=1000`, { headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } }),
    );
    await check('Model', await fetch(`${gw.url}/models/sneaky`, { headers: { authorization: `Bearer ${KEY}` } }));
    await check('AnthropicModel', await fetch(`${gw.url}/models/sneaky`, { headers: { 'x-api-key': KEY } }));
    // The schemas do reject an entry without its prices.
    expect(
      ajv.getSchema('gateway#/components/schemas/Model')!({ id: 'x', object: 'model', created: 1, owned_by: 'o' }),
    ).toBe(false);
  });
});
