import type OpenAI from 'openai';
import { expect } from 'vitest';
import { type AccountsGateway, completion, startAccountsGateway } from '../security/accounts-gateway.js';

type ApiError = InstanceType<typeof OpenAI.APIError>;

/** What one call costs on {@link startLimitGroupsGateway}: 1,000 prompt + 1,000 completion tokens at 1 + 2 USD per million. */
export const CALL_USD = 0.003;

/**
 * The gateway of the teams and organisations tests (SQLite, the in-process limiter): models `gpt-4o`, `gpt-4o-mini`
 * and `o1` at 1 USD (input) and 2 USD (output) per million tokens, every call answered with 1,000 prompt and 1,000
 * completion tokens, so that each costs {@link CALL_USD}.
 */
export function startLimitGroupsGateway(): Promise<AccountsGateway> {
  return startAccountsGateway(
    async (request) => ({ json: completion((request.json as { model: string }).model, 1000, 1000) }),
    `models:
  - { id: gpt-4o, provider: openai, price: { input: 1, output: 2 } }
  - { id: gpt-4o-mini, provider: openai, price: { input: 1, output: 2 } }
  - { id: o1, provider: openai, price: { input: 1, output: 2 } }
`,
  );
}

/** Chat calls with the official SDK on the gateway `gateway()` returns (asked at each call: tests start it later). */
export function chatCalls(gateway: () => AccountsGateway) {
  /** One chat call of `key` to `model` (default `gpt-4o`), `max_tokens` 1,000. */
  const ask = (key: string, model = 'gpt-4o') =>
    gateway()
      .client(key)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000 });
  /** 200 when the call was served, else `<status> <code>` of the refusal (`403 model_not_allowed`). */
  const outcome = (key: string, model?: string) =>
    ask(key, model).then(
      () => 200,
      (e: ApiError) => `${e.status} ${e.code}`,
    );
  return { ask, outcome };
}

/**
 * Spends a budget of 2.5 calls per day of a `kind` (team or organization) through two of its keys: three calls are
 * served (a, b, a: the third one admitted on the spend of two), the fourth (b) is refused with 429
 * `insufficient_quota` naming the `kind`'s budget and its spend.
 */
export async function expectBudgetSpentByThreeCalls(
  calls: ReturnType<typeof chatCalls>,
  [a, b]: readonly [string, string],
  kind: 'team' | 'organization',
): Promise<void> {
  expect(await calls.outcome(a)).toBe(200);
  expect(await calls.outcome(b)).toBe(200);
  expect(await calls.outcome(a)).toBe(200);
  const refusal = await calls.ask(b).catch((e: ApiError) => e);
  expect(refusal).toMatchObject({ status: 429, code: 'insufficient_quota' });
  expect((refusal as ApiError).message).toBe(
    `429 This ${kind}'s budget of ${2.5 * CALL_USD} USD per day is spent (0.009 USD spent).`,
  );
}

/** `GET /admin/usage?<query>` rows: the group and its requests and cost (USD). */
export async function usageGroups(
  gateway: AccountsGateway,
  query: string,
): Promise<{ group: string; requests: number; cost_usd: number }[]> {
  return (await gateway.admin('GET', `/usage?${query}`)).body.data as {
    group: string;
    requests: number;
    cost_usd: number;
  }[];
}
