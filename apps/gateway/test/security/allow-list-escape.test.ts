import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsGateway, completion, startAccountsGateway } from './accounts-gateway.js';

// Attack (issue #22): fallbacks escaped the key's model allow-list: a key allowed only `failing` was served by
// `expensive` when `failing` failed. Every model of the plan (targets and fallbacks) is now checked.
let gw: AccountsGateway;
beforeAll(async () => {
  gw = await startAccountsGateway(
    { json: completion('expensive-upstream', 10, 10) },
    `
models:
  - { id: failing, provider: dead, price: { input: 1, output: 1 }, fallbacks: [expensive] }
  - { id: expensive, provider: openai, upstream: expensive-upstream, price: { input: 100, output: 400 } }
`,
  );
});
afterAll(() => gw?.close());

const ask = (client: OpenAI, model: string) =>
  client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).withResponse();

describe('security: fallbacks and the model allow-list', () => {
  it('never serves a key from a fallback model outside its allow-list', async () => {
    const { key } = await gw.createKey({ name: 'failing-only', models: ['failing'] });
    const before = gw.upstream.requests.length;
    const error = (await ask(gw.client(key), 'failing').then(
      ({ response }) => `served by ${response.headers.get('x-switchyard-model')}`,
      (e: InstanceType<typeof OpenAI.APIError>) => e,
    )) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toMatchObject({ status: expect.any(Number) });
    expect(error.status).toBeGreaterThanOrEqual(500);
    expect(gw.upstream.requests.length).toBe(before);
  });

  it('still falls back for a key allowed both models', async () => {
    const { key } = await gw.createKey({ name: 'both', models: ['failing', 'expensive'] });
    const { response } = await ask(gw.client(key), 'failing');
    expect(response.headers.get('x-switchyard-model')).toBe('expensive');
  });

  it('answers 403 model_not_allowed for a model outside the allow-list, booked with its status', async () => {
    const { id, key } = await gw.createKey({ name: 'failing-only-2', models: ['failing'] });
    await expect(ask(gw.client(key), 'expensive')).rejects.toMatchObject({ status: 403, code: 'model_not_allowed' });
    await expect.poll(() => gw.usageByStatus(id)).toMatchObject({ '403': { requests: 1 } });
  });
});
