import { describe, expect, it } from 'vitest';
import {
  ADAPTER_SPEC_VERSION,
  type AttemptEndEvent,
  type ChatCompletion,
  type CooldownEvent,
  createGateway,
  GatewayError,
  type ProviderAdapter,
  upstreamErrorCode,
} from '../src/index.js';

const completion = (model: string): ChatCompletion => ({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: model }, finish_reason: 'stop', logprobs: null }],
});
const failure = (status: number) =>
  new GatewayError({
    status,
    type: 'server_error',
    code: upstreamErrorCode(`e${status}`),
    message: `upstream ${status}`,
  });

/** Answers each call with the next step (the last repeats); records the headers each call got. */
function scripted(name: string, steps: ('ok' | GatewayError)[]) {
  const headers: (Record<string, string> | undefined)[] = [];
  const adapter: ProviderAdapter = {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: name,
    async chatCompletions(request, context) {
      headers.push(context.headers);
      const step = steps[Math.min(headers.length - 1, steps.length - 1)]!;
      if (step instanceof GatewayError) throw step;
      return completion(request.model);
    },
  };
  return { adapter, headers };
}

const ask = (model: string) => ({ model, messages: [{ role: 'user', content: 'x' }] });
const fast = { backoff: { baseMs: 1, maxMs: 2 } };

describe('gateway observers', () => {
  it('report each attempt as retry, fallback, ok or error, and pass start headers to the adapter', async () => {
    const a = scripted('a', [failure(503)]);
    const b = scripted('b', ['ok']);
    const gateway = createGateway({
      providers: { a: a.adapter, b: b.adapter },
      models: [
        { id: 'm', provider: 'a', upstream: 'a-up', fallbacks: ['n'], maxRetries: 1 },
        { id: 'n', provider: 'b' },
        { id: 'bad', provider: 'a', maxRetries: 0 },
      ],
      routing: { ...fast, cooldown: { failures: 100, cooldownMs: 1000 } },
    });
    const ended: AttemptEndEvent[] = [];
    const stop = gateway.observe({
      attemptStarted: (event) => ({
        headers: { traceparent: `00-${'1'.repeat(32)}-${String(event.attempt).padStart(16, '0')}-01` },
      }),
      attemptEnded: (event) => void ended.push(event),
    });
    await gateway.chatCompletions(ask('m'), { requestId: 'r1' });
    expect(ended.map((e) => [e.provider, e.upstreamModel, e.model, e.attempt, e.fallback, e.outcome])).toEqual([
      ['a', 'a-up', 'm', 1, false, 'retry'],
      ['a', 'a-up', 'm', 2, false, 'fallback'],
      ['b', 'n', 'n', 3, true, 'ok'],
    ]);
    expect(
      ended.every((e) => e.operation === 'chatCompletions' && e.requestId === 'r1' && e.requestedModel === 'm'),
    ).toBe(true);
    expect((ended[0]!.error as GatewayError).status).toBe(503);
    expect(a.headers.map((h) => h?.traceparent?.slice(-19, -3))).toEqual(['0000000000000001', '0000000000000002']);
    expect(b.headers[0]?.traceparent).toContain('-0000000000000003-');

    ended.length = 0;
    await expect(gateway.chatCompletions(ask('bad'))).rejects.toMatchObject({ status: 503 });
    expect(ended.map((e) => e.outcome)).toEqual(['error']);
    stop();
    await gateway.chatCompletions(ask('n'));
    expect(ended).toHaveLength(1);
  });

  it('a non-retryable failure ends as error at once; a throwing observer changes nothing', async () => {
    const a = scripted('a', [failure(400)]);
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    const outcomes: string[] = [];
    gateway.observe({
      attemptStarted: () => {
        throw new Error('observer bug');
      },
      attemptEnded: (event) => {
        outcomes.push(event.outcome);
        throw new Error('observer bug');
      },
    });
    await expect(gateway.chatCompletions(ask('m'))).rejects.toMatchObject({ status: 400 });
    expect(outcomes).toEqual(['error']);
  });

  it('reports a breaker opening and closing again after its cooldown', async () => {
    const a = scripted('a', [failure(500), failure(500), 'ok']);
    const gateway = createGateway({
      providers: { a: a.adapter },
      models: [{ id: 'm', provider: 'a', upstream: 'up', maxRetries: 1 }],
      routing: { ...fast, cooldown: { failures: 2, cooldownMs: 50 } },
    });
    const changes: CooldownEvent[] = [];
    gateway.observe({ cooldownChanged: (event) => void changes.push(event) });
    await expect(gateway.chatCompletions(ask('m'))).rejects.toMatchObject({ status: 500 });
    expect(changes).toEqual([{ key: 'a/up', provider: 'a', upstreamModel: 'up', coolingDown: true }]);
    await expect.poll(() => changes.length, { timeout: 2000 }).toBe(2);
    expect(changes[1]).toMatchObject({ key: 'a/up', coolingDown: false });
  });
});
