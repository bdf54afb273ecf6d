import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsGateway, completion, startAccountsGateway } from './accounts-gateway.js';

// Attack (issue #22): a model addressed as `<provider>/<upstream id>` had no price and cost 0, so a key with a $0.01
// budget made 20 calls worth $1.60 each. Such calls are now priced from the configured model served by the same
// provider and upstream id, and refused (403) for keys with a budget when no price is known.
const PRICE = { input: 2.5, output: 10 }; // USD per million tokens
const CALL_COST = (40_000 * PRICE.input + 150_000 * PRICE.output) / 1e6; // $1.60

let gw: AccountsGateway;
beforeAll(async () => {
  gw = await startAccountsGateway(
    { json: completion('gpt-4o-2024-08-06', 40_000, 150_000) },
    `
models:
  - { id: gpt-4o, provider: openai, upstream: gpt-4o-2024-08-06, price: { input: ${PRICE.input}, output: ${PRICE.output} } }
`,
  );
});
afterAll(() => gw?.close());

const ask = (client: OpenAI, model: string) =>
  client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Write a long essay.' }] });

describe('security: budget bypass through <provider>/<upstream id>', () => {
  it('prices a direct call from the configured model and stops the key at its budget', async () => {
    const { id, key } = await gw.createKey({ name: 'tiny-budget', budget_usd: 0.01 });
    const client = gw.client(key);
    const outcomes: (number | string)[] = [];
    for (let i = 0; i < 20; i++) {
      outcomes.push(
        await ask(client, 'openai/gpt-4o-2024-08-06').then(
          () => 200,
          (e: InstanceType<typeof OpenAI.APIError>) => `${e.status} ${e.code}`,
        ),
      );
    }
    expect(outcomes[0]).toBe(200);
    expect(outcomes.slice(1)).toEqual(Array(19).fill('429 insufficient_quota'));
    await expect
      .poll(() => gw.usageByStatus(id))
      .toMatchObject({
        '200': { requests: 1, cost_usd: expect.closeTo(CALL_COST, 6) },
        '429': { requests: 19, cost_usd: 0 },
      });
  });

  it('admits at most one of 20 parallel direct calls on a budget smaller than one call', async () => {
    const { id, key } = await gw.createKey({ name: 'tiny-budget-parallel', budget_usd: 0.01 });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => ask(gw.client(key), 'openai/gpt-4o-2024-08-06')),
    );
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(1);
    await expect
      .poll(async () => Object.values(await gw.usageByStatus(id)).reduce((n, t) => n + t.requests, 0))
      .toBe(20);
    expect((await gw.usageByStatus(id))['200']?.cost_usd ?? 0).toBeLessThanOrEqual(CALL_COST + 1e-9);
  });

  it('refuses an unpriced upstream model for a key with a budget (403 model_not_priced), not for others', async () => {
    const budgeted = await gw.createKey({ name: 'budgeted', budget_usd: 100 });
    await expect(ask(gw.client(budgeted.key), 'openai/some-unpriced-model')).rejects.toMatchObject({
      status: 403,
      code: 'model_not_priced',
      param: 'model',
    });
    const free = await gw.createKey({ name: 'no-budget' });
    expect((await ask(gw.client(free.key), 'openai/some-unpriced-model')).choices).toHaveLength(1);
    await expect.poll(() => gw.usageByStatus(budgeted.id)).toMatchObject({ '403': { requests: 1, cost_usd: 0 } });
  });
});
