import { ADAPTER_SPEC_VERSION, type ChatCompletion, type ProviderAdapter, createGateway } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { Accounts } from '../src/index.js';
import { memoryStore } from './memory-store.js';

const answer = (prompt: number, completion: number): ChatCompletion => ({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'ok', refusal: null }, finish_reason: 'stop', logprobs: null },
  ],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});

/** An adapter whose first `stalls` calls never answer (until aborted), then answer with fixed usage. */
function adapter(stalls = 0): ProviderAdapter & { calls: number } {
  const self = {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'fake',
    calls: 0,
    async chatCompletions(_request: unknown, context: { signal: AbortSignal }) {
      if (self.calls++ < stalls) {
        return new Promise<never>((_, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }),
        );
      }
      return answer(100, 50);
    },
  };
  return self as unknown as ProviderAdapter & { calls: number };
}

const PRICE = { input: 1000, output: 2000 }; // USD per million tokens
const body = { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(400) }] }; // estimated at 100 prompt tokens

describe('createGateway({ accounting }) without Express', () => {
  it('authenticates, enforces limits and writes the ledger for embedders', async () => {
    const store = memoryStore();
    const accounts = await Accounts.open({ store, staticKeys: [] });
    const gateway = createGateway({
      providers: { fake: adapter() },
      models: [{ id: 'm', provider: 'fake', price: PRICE }],
      accounting: accounts.accounting,
    });
    const { key } = await accounts.keys.create({ name: 'embedded', rpm_limit: 1 });
    expect(() => gateway.authenticate('Bearer sk-sy-unknown', { requestId: 'r0' })).toThrow(
      expect.objectContaining({ status: 401 }),
    );
    const caller = gateway.authenticate(`Bearer ${key}`, { requestId: 'r1' });
    const result = await gateway.chatCompletions(body, { caller, requestId: 'r1' });
    expect(result.headers).toMatchObject({ 'x-ratelimit-limit-requests': '1', 'x-ratelimit-remaining-requests': '0' });
    expect(result.costUsd).toBeCloseTo((100 * PRICE.input + 50 * PRICE.output) / 1e6, 10);
    await expect(gateway.chatCompletions(body, { caller, requestId: 'r2' })).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
    });
    await expect(gateway.chatCompletions(body, { requestId: 'r3' })).rejects.toMatchObject({ status: 401 });
    await accounts.ledger.flush();
    expect(store.rows.map((r) => [r.request_id, r.status])).toEqual([
      ['r0', 401],
      ['r1', 200],
      ['r2', 429],
    ]);
  });

  it('books every billable attempt: a timed-out attempt adds its prompt estimate, marked estimated', async () => {
    const store = memoryStore();
    const accounts = await Accounts.open({ store, staticKeys: [] });
    const gateway = createGateway({
      providers: { fake: adapter(1) },
      models: [{ id: 'm', provider: 'fake', price: PRICE, timeouts: { firstByteMs: 50 } }],
      routing: { maxRetries: 1, backoff: { baseMs: 1, maxMs: 1 } },
      accounting: accounts.accounting,
    });
    const { key } = await accounts.keys.create({ name: 'retried' });
    const result = await gateway.chatCompletions(body, {
      caller: gateway.authenticate(`Bearer ${key}`),
      requestId: 'r',
    });
    expect(result.attempts).toBe(2);
    await accounts.ledger.flush();
    expect(store.rows).toEqual([
      expect.objectContaining({
        status: 200,
        attempts: 2,
        usage_estimated: true,
        prompt_tokens: 100 + 100,
        completion_tokens: 50,
        cost_usd: expect.closeTo((200 * PRICE.input + 50 * PRICE.output) / 1e6, 10),
      }),
    ]);
  });
});
