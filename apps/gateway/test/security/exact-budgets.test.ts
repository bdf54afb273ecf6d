import { startRedis, type TestRedis } from '@switchyard/testkit/servers';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsGateway, completion, startAccountsGateway } from './accounts-gateway.js';

// Attack (issue #38 item 5): "phantom budget exceeded". A key with a $0.0001 budget, a model at $1/$2 per million
// tokens, calls of $0.000011 each (5 prompt + 3 completion tokens) sent one after another: with limits in Redis the
// second call got 429 "This key's budget ... is spent" at 11 % spent, because the first call's reservation (1,024
// completion tokens: no max_tokens) was settled by a batch every 50 ms, after its answer had reached the client.
// Now a call's reservation is settled before its answer ends, so a sequential client gets exactly what the budget and
// tpm allow; a refusal says "spent" only when the spend has reached the budget, else which estimate did not fit.
const PRICE = { input: 1, output: 2 }; // USD per million tokens
const PROMPT = 5;
const COMPLETION = 3;
const CALL_COST = (PROMPT * PRICE.input + COMPLETION * PRICE.output) / 1e6; // 0.000011 USD
const BUDGET = 0.0001;

type ApiError = InstanceType<typeof OpenAI.APIError>;

let redis: TestRedis;
const gateways: Record<'memory' | 'redis', AccountsGateway> = {} as never;
/** Upstream calls whose prompt is `hold` wait until the test opens the gate. */
let openGate: () => void = () => {};

beforeAll(async () => {
  redis = await startRedis();
  const route = async (request: { json?: unknown }) => {
    if ((request.json as { messages: { content: string }[] }).messages[0]?.content === 'hold')
      await new Promise<void>((resolve) => (openGate = resolve));
    return { json: completion('cheap', PROMPT, COMPLETION) };
  };
  const models = `models:\n  - { id: cheap, provider: openai, price: { input: ${PRICE.input}, output: ${PRICE.output} } }\n`;
  [gateways.memory, gateways.redis] = await Promise.all([
    startAccountsGateway(route, models),
    startAccountsGateway(route, `${models}redis: { url: "${redis.url}", on_error: closed }\n`),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all(Object.values(gateways).map((gateway) => gateway?.close()));
  await redis?.close();
});

/** Calls one after another (each sent once the previous answer has ended) until one is refused; at most `max`. */
async function untilRefused(
  client: OpenAI,
  request: Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'model' | 'messages'> = {},
  max = 100,
) {
  let served = 0;
  for (let i = 0; i < max; i++) {
    try {
      await client.chat.completions.create({ model: 'cheap', messages: [{ role: 'user', content: 'hi' }], ...request });
      served++;
    } catch (error) {
      return { served, refusal: error as ApiError };
    }
  }
  return { served, refusal: undefined };
}

describe.each(['memory', 'redis'] as const)('security: exact budgets, limits %s', (where) => {
  it('a sequential client gets every call its $0.0001 budget allows; the refusal says the budget is spent', async () => {
    const gw = gateways[where];
    const { id, key } = await gw.createKey({ name: 'tiny-budget', budget_usd: BUDGET });
    const { served, refusal } = await untilRefused(gw.client(key));
    // 9 calls spend $0.000099 (below the budget): the 10th is admitted (the documented tolerance: a budget may be
    // passed by the last call admitted), after it the spend is $0.00011 and the budget is spent.
    expect(served).toBe(10);
    expect(refusal).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(refusal?.message).toMatch(/budget of 0\.0001 USD per total is spent \(0\.00011 USD spent\)/);
    await expect.poll(() => gw.usageByStatus(id)).toMatchObject({ '200': { requests: 10 }, '429': { requests: 1 } });
    const spent = (await gw.usageByStatus(id))['200']!.cost_usd;
    expect(spent).toBeCloseTo(10 * CALL_COST, 12);
    expect(spent).toBeGreaterThanOrEqual(BUDGET);
    expect(spent).toBeLessThanOrEqual(BUDGET + CALL_COST);
  });

  it('a sequential client gets what tpm allows: reservations of max_tokens 100 are settled at 8 tokens each', async () => {
    const gw = gateways[where];
    const TPM = 300;
    const { key } = await gw.createKey({ name: 'tpm', tpm_limit: TPM });
    const started = Date.now();
    const { served, refusal } = await untilRefused(gw.client(key), { max_tokens: 100 });
    const refill = Math.ceil(((Date.now() - started) * TPM) / 60_000);
    // Each call reserves 100 completion tokens plus a prompt estimate of 1 (2 characters), and uses 8: the client is
    // served while the bucket, less 8 a call, holds the next reservation: 1 + floor((300 - 101) / 8) = 25 calls.
    expect(served).toBeGreaterThanOrEqual(25);
    expect(served).toBeLessThanOrEqual(25 + Math.ceil(refill / 8));
    expect(refusal).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });

  it('a call refused for what calls in flight reserved says its estimate exceeds the remaining budget, with its basis', async () => {
    const gw = gateways[where];
    const { key } = await gw.createKey({ name: 'in-flight', budget_usd: 0.01 });
    const client = gw.client(key);
    // In flight: 3,000 completion tokens reserved ($0.006) of $0.01.
    const held = client.chat.completions.create({
      model: 'cheap',
      max_tokens: 3000,
      messages: [{ role: 'user', content: 'hold' }],
    });
    await expect
      .poll(
        () =>
          gw.upstream.requests.filter(
            (r) => (r.json as { messages: { content: string }[] }).messages[0]?.content === 'hold',
          ).length,
      )
      .toBeGreaterThan(0);
    const refused = (await client.chat.completions
      .create({ model: 'cheap', max_tokens: 2500, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: ApiError) => e)) as ApiError;
    expect(refused).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(refused.message).not.toMatch(/is spent/);
    expect(refused.message).toMatch(
      /This call's estimate of 0\.005001 USD \(1 prompt token and 2,500 completion tokens from max_tokens\) exceeds the remaining 0\.003999 USD of this key's budget of 0\.01 USD per total \(0 USD spent, 0\.006001 USD reserved by calls in flight\)/,
    );
    // The call in flight ends (settled at $0.000011): the same call passes.
    openGate();
    await held;
    await expect(
      client.chat.completions.create({ model: 'cheap', max_tokens: 2500, messages: [{ role: 'user', content: 'hi' }] }),
    ).resolves.toMatchObject({ object: 'chat.completion' });
  });
});
