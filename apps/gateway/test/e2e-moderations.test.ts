import { testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { useEndpointsGateway } from './helpers/endpoints-gateway.js';

// `POST /v1/moderations` through the official openai SDK (client.moderations.create) over real HTTP: OpenAI passes the
// request on (text and image inputs), the Mistral preset translates to and from Mistral's moderation API, and other
// providers answer 400 unsupported_operation.
const fixtures = testkitFixtures();
const openaiAnswer = fixtures.json<{
  results: { categories: Record<string, boolean>; category_scores: Record<string, number> }[];
}>('openai/spec-examples/createmoderation-image-and-text.json');

const { gateway, createKey, client, ledgerOf } = useEndpointsGateway(
  `
  - { id: omni-moderation-latest, provider: openai }
  - { id: mistral-moderation, provider: mistral, upstream: mistral-moderation-latest, price: { input: 0.1, output: 0 } }
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
  - { id: groq-llama, provider: groq, upstream: llama-3.3-70b-versatile }
`,
  { 'POST /mistral/v1/moderations': { json: fixtures.json('mistral/mistral-moderation.json') } },
);
const upstream = () => gateway.upstreams.upstream;

describe('POST /v1/moderations', () => {
  it('classifies text through OpenAI with the default model, and books a ledger row', async () => {
    const { id, key } = await createKey({ name: 'moderations' });
    const res = await client(key).moderations.create({ input: 'I want to kill them.' });
    expect(res.results[0]).toEqual(openaiAnswer.results[0]);
    expect(res.results[0]!.flagged).toBe(true);
    const sent = upstream().requestsTo('POST /v1/moderations').at(-1)!;
    expect(sent.json).toEqual({ input: 'I want to kill them.', model: 'omni-moderation-latest' });
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-openai-0000');
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({ model: 'omni-moderation-latest', provider: 'openai', status: 200, stream: false });
  });

  it('passes text and image inputs to OpenAI as they were sent', async () => {
    const { key } = await createKey({ name: 'moderations-image' });
    const input = [
      { type: 'text' as const, text: '...text to classify goes here...' },
      { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ];
    const res = await client(key).moderations.create({ model: 'omni-moderation-latest', input });
    expect(res.results[0]!.category_applied_input_types?.violence).toEqual(['text', 'image']);
    expect(upstream().requestsTo('POST /v1/moderations').at(-1)!.json).toEqual({
      model: 'omni-moderation-latest',
      input,
    });
  });

  it("serves Mistral's moderation through its preset in OpenAI's shape, metered from Mistral's usage", async () => {
    const { id, key } = await createKey({ name: 'moderations-mistral' });
    const res = await client(key).moderations.create({
      model: 'mistral-moderation',
      input: ['you are a very nice person'],
    });
    expect(res.results).toHaveLength(1);
    expect(res.results[0]!.flagged).toBe(false);
    expect(res.results[0]!.category_scores.violence).toBe(0.00020342698553577);
    expect(res.results[0]!.category_scores['self-harm']).toBe(6.1441742218449e-6);
    const sent = upstream().requestsTo('POST /mistral/v1/moderations').at(-1)!;
    expect(sent.json).toEqual({ model: 'mistral-moderation-latest', input: ['you are a very nice person'] });
    expect(sent.headers.authorization).toBe('Bearer mistral-upstream-0000');
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({
      model: 'mistral-moderation',
      provider: 'mistral',
      status: 200,
      prompt_tokens: 9,
      completion_tokens: 0,
    });
    expect(row!.cost_usd).toBeCloseTo((9 * 0.1) / 1e6, 12);
  });

  it('refuses an image input for Mistral with a 400 naming it, before any upstream call', async () => {
    const { key } = await createKey({ name: 'moderations-mistral-image' });
    const error = await client(key)
      .moderations.create({
        model: 'mistral-moderation',
        input: [
          { type: 'text', text: 'a' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, param: 'input[1]', type: 'invalid_request_error' });
    expect(upstream().requests).toHaveLength(0);
  });

  it('answers 400 unsupported_operation for providers without moderations', async () => {
    const { id, key } = await createKey({ name: 'moderations-unsupported' });
    for (const model of ['claude', 'groq-llama']) {
      await expect(client(key).moderations.create({ model, input: 'hi' })).rejects.toMatchObject({
        status: 400,
        code: 'unsupported_operation',
        param: 'model',
      });
    }
    expect(upstream().requests).toHaveLength(0);
    expect((await ledgerOf(id, 2)).map((r) => r.status)).toEqual([400, 400]);
  });

  it('refuses bad input with a 400 in OpenAI shape naming the field', async () => {
    const { key } = await createKey({ name: 'moderations-bad' });
    const post = (body: unknown) =>
      fetch(`${gateway.url}/moderations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const body of [
      {},
      { input: [] },
      { input: 42 },
      { input: [{ type: 'audio', audio: 'x' }] },
      { input: 'x', model: '' },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error } = (await res.json()) as { error: Record<string, unknown> };
      expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
      expect(error.type).toBe('invalid_request_error');
      expect(String(error.param)).toMatch(/^(input|model)/);
    }
    expect(upstream().requests).toHaveLength(0);
  });

  it('applies the key: 401 for a wrong key, 429 past the rpm limit', async () => {
    await expect(client('sk-wrong-key-0000000000').moderations.create({ input: 'hi' })).rejects.toMatchObject({
      status: 401,
    });
    const { id, key } = await createKey({ name: 'moderations-rpm', rpm_limit: 1 });
    await client(key).moderations.create({ input: 'one' });
    await expect(client(key).moderations.create({ input: 'two' })).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
    });
    expect((await ledgerOf(id, 2)).map((r) => r.status)).toEqual([429, 200]);
  });
});
