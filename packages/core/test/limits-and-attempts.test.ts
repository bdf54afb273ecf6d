import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  type ChatCompletion,
  GatewayError,
  type ProviderAdapter,
  createGateway,
} from '../src/index.js';
import { attemptRecordsOf } from '../src/routing/attempt-records.js';
import { TargetHealth } from '../src/routing/target-health.js';

const completion: ChatCompletion = {
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop', logprobs: null }],
};
const ask = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
const fast = { backoff: { baseMs: 1, maxMs: 2 } };

function adapter(step: (context: AdapterCallContext, call: number) => Promise<ChatCompletion>) {
  const calls: AdapterCallContext[] = [];
  const value: ProviderAdapter = {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'test',
    chatCompletions: (_request, context) => {
      calls.push(context);
      return step(context, calls.length - 1);
    },
  };
  return { adapter: value, calls };
}
const hang = (context: AdapterCallContext) =>
  new Promise<never>((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason)));
const unavailable = () => Promise.reject(new GatewayError({ status: 503, type: 'server_error', message: 'down' }));

describe('clients can only lower limits', () => {
  it('x-switchyard-max-retries above the model max_retries does not add attempts', async () => {
    const a = adapter(unavailable);
    const gateway = createGateway({
      providers: { a: a.adapter },
      models: [{ id: 'm', provider: 'a', maxRetries: 1 }],
      routing: fast,
    });
    await expect(gateway.chatCompletions(ask, { maxRetries: 5 })).rejects.toMatchObject({ status: 503 });
    expect(a.calls).toHaveLength(2);
  });

  it('x-switchyard-max-retries above routing.max_retries does not add attempts', async () => {
    const a = adapter(unavailable);
    const gateway = createGateway({
      providers: { a: a.adapter },
      models: [{ id: 'm', provider: 'a' }],
      routing: { ...fast, maxRetries: 1 },
    });
    await expect(gateway.chatCompletions(ask, { maxRetries: 5 })).rejects.toMatchObject({ status: 503 });
    expect(a.calls).toHaveLength(2);
  });

  it('a lower x-switchyard-max-retries still lowers it', async () => {
    const a = adapter(unavailable);
    const gateway = createGateway({
      providers: { a: a.adapter },
      models: [{ id: 'm', provider: 'a', maxRetries: 3 }],
      routing: fast,
    });
    await expect(gateway.chatCompletions(ask, { maxRetries: 0 })).rejects.toMatchObject({ status: 503 });
    expect(a.calls).toHaveLength(1);
  });

  it('x-switchyard-timeout-ms cannot stretch the model total_ms', { timeout: 4_000 }, async () => {
    const a = adapter(hang);
    const gateway = createGateway({
      providers: { a: a.adapter },
      models: [{ id: 'm', provider: 'a', timeouts: { totalMs: 200 } }],
      routing: fast,
    });
    // Were the header obeyed, the call would wait 60 s and the test time out.
    await expect(gateway.chatCompletions(ask, { timeoutMs: 60_000 })).rejects.toMatchObject({
      status: 504,
      code: 'upstream_timeout',
    });
  });
});

describe('non-streamed calls: time to headers versus the body', () => {
  it('stops the first-byte timer once the upstream accepted the call, so a long body is not aborted or retried', async () => {
    const a = adapter(async (context) => {
      context.upstream?.onResponseHeaders?.();
      await sleep(300); // the body takes longer than first_byte_ms
      return completion;
    });
    const gateway = createGateway({
      providers: { a: a.adapter },
      models: [{ id: 'm', provider: 'a', timeouts: { firstByteMs: 100 } }],
      routing: fast,
    });
    const result = await gateway.chatCompletions(ask);
    expect(result.attempts).toBe(1);
    expect(result.attemptRecords).toMatchObject([{ provider: 'a', accepted: true, outcome: 'success' }]);
    expect(a.calls).toHaveLength(1);
  });

  it('does not retry a timeout after the upstream accepted the call, and reports the attempt', async () => {
    const a = adapter(async (context) => {
      context.upstream?.onResponseHeaders?.();
      throw new GatewayError({ status: 504, type: 'server_error', code: 'upstream_timeout', message: 'body stalled' });
    });
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    const failure = await gateway.chatCompletions(ask).catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 504 });
    expect(a.calls).toHaveLength(1);
    expect(attemptRecordsOf(failure)).toMatchObject([{ provider: 'a', accepted: true, outcome: 'error', status: 504 }]);
  });

  it('still retries a timeout before the upstream accepted the call, recording every attempt', async () => {
    const a = adapter((context, call) => (call === 0 ? hang(context) : Promise.resolve(completion)));
    const gateway = createGateway({
      providers: { a: a.adapter },
      models: [{ id: 'm', provider: 'a', timeouts: { firstByteMs: 50 } }],
      routing: fast,
    });
    const result = await gateway.chatCompletions(ask);
    expect(result.attempts).toBe(2);
    expect(result.attemptRecords).toMatchObject([
      { accepted: false, outcome: 'error', status: 504 },
      { accepted: true, outcome: 'success' },
    ]);
  });
});

describe('bounded client-keyed state', () => {
  it('TargetHealth remembers at most 10,000 deployments', () => {
    const health = new TargetHealth({ failures: 1, cooldownMs: 60_000 });
    for (let i = 0; i < 20_000; i++) health.failure(`p/${i}`);
    expect(health.isCoolingDown('p/19999')).toBe(true);
    expect(health.isCoolingDown('p/0')).toBe(false); // forgotten
  });

  it("the gateway's health entries for <provider>/<id> models are capped (least recently used forgotten)", async () => {
    const a = adapter(() => Promise.resolve(completion));
    const gateway = createGateway({ providers: { a: a.adapter }, routing: fast });
    await gateway.chatCompletions({ ...ask, model: 'a/first' });
    expect(gateway.health.latencyMs('a/first')).toBeDefined();
    for (let i = 0; i < 10_000; i++) gateway.health.success(`a/other-${i}`, 1);
    expect(gateway.health.latencyMs('a/first')).toBeUndefined();
  }, 20_000);
});
