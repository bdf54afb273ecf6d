import { describe, expect, it, vi } from 'vitest';
import {
  ADAPTER_SPEC_VERSION,
  type ChatCompletion,
  type ChatCompletionChunk,
  GatewayError,
  type ProviderAdapter,
  type SharedCooldown,
  createGateway,
} from '../src/index.js';
import { orderTargets } from '../src/routing/order-targets.js';
import { retryAfterMs, retryDelayMs } from '../src/routing/retry-delay.js';
import { TargetHealth } from '../src/routing/target-health.js';

const completion = (model: string): ChatCompletion => ({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: model }, finish_reason: 'stop', logprobs: null }],
});

type Step = 'ok' | GatewayError | 'hang' | 'stream' | 'stall-first';
const error = (status: number, headers?: Record<string, string>) =>
  new GatewayError({ status, type: 'server_error', message: `upstream ${status}`, headers });

/** An adapter that answers each call with the next scripted step (the last one repeats) and counts calls. */
function scripted(name: string, steps: Step[]) {
  const calls: { model: string; signal: AbortSignal }[] = [];
  const adapter: ProviderAdapter = {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: name,
    async chatCompletions(request, context) {
      calls.push({ model: request.model, signal: context.signal });
      const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
      if (step instanceof GatewayError) throw step;
      if (step === 'hang' || step === 'stall-first') {
        if (step === 'stall-first' && request.stream) {
          return (async function* (): AsyncGenerator<ChatCompletionChunk> {
            await new Promise((_, reject) =>
              context.signal.addEventListener('abort', () => reject(context.signal.reason)),
            );
          })();
        }
        return new Promise((_, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason)),
        );
      }
      if (request.stream) {
        return (async function* (): AsyncGenerator<ChatCompletionChunk> {
          for (const content of ['a', 'b'])
            yield {
              id: 'c',
              object: 'chat.completion.chunk',
              created: 1,
              model: name,
              choices: [{ index: 0, delta: { content }, finish_reason: null }],
            };
          if (step === 'stream')
            await new Promise((_, reject) =>
              context.signal.addEventListener('abort', () => reject(context.signal.reason)),
            );
        })();
      }
      return completion(`${name}:${request.model}`);
    },
  };
  return { adapter, calls };
}

const fast = { backoff: { baseMs: 1, maxMs: 5 } };
const ask = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'x' }],
  ...extra,
});

describe('retries and fallbacks', () => {
  it.each([500, 502, 503, 504, 429, 408, 409])('retries %i on the same target, then succeeds', async (status) => {
    const a = scripted('a', [error(status), 'ok']);
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    const result = await gateway.chatCompletions(ask('m'));
    expect(result.attempts).toBe(2);
    expect((result.data as ChatCompletion).choices[0]?.message.content).toBe('a:m');
  });

  it.each([400, 404, 422])('never retries %i', async (status) => {
    const a = scripted('a', [error(status), 'ok']);
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    await expect(gateway.chatCompletions(ask('m'))).rejects.toMatchObject({
      status,
      headers: { 'x-switchyard-attempts': '1' },
    });
    expect(a.calls).toHaveLength(1);
  });

  // Issue #22: an upstream 401/403 rejected the gateway's credentials, not the client's: 502 naming the provider.
  it.each([401, 403])(
    'never retries %i on the same target, and answers 502 upstream_auth_failed naming the provider',
    async (status) => {
      const a = scripted('a', [error(status), 'ok']);
      const gateway = createGateway({
        providers: { a: a.adapter },
        models: [{ id: 'm', provider: 'a' }],
        routing: fast,
      });
      const failure = (await gateway.chatCompletions(ask('m')).catch((e: unknown) => e)) as GatewayError;
      expect(failure).toMatchObject({
        status: 502,
        code: 'upstream_auth_failed',
        headers: { 'x-switchyard-attempts': '1' },
      });
      expect(failure.message).toContain("provider 'a'");
      expect(a.calls).toHaveLength(1);
    },
  );

  it('fails over to the next target after a 401, without retrying the refused one', async () => {
    const a = scripted('a', [error(401), 'ok']);
    const b = scripted('b', ['ok']);
    const gateway = createGateway({
      providers: { a: a.adapter, b: b.adapter },
      models: [{ id: 'm', targets: [{ provider: 'a' }, { provider: 'b' }], strategy: 'round-robin' }],
      routing: fast,
    });
    const result = await gateway.chatCompletions(ask('m'));
    expect(result.provider).toBe('b');
    expect(a.calls).toHaveLength(1);
  });

  it('does not retry insufficient_quota like a rate limit (same status, one attempt)', async () => {
    const quota = new GatewayError({
      status: 429,
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: 'You exceeded your current quota.',
    });
    const a = scripted('a', [quota, 'ok']);
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    await expect(gateway.chatCompletions(ask('m'))).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(a.calls).toHaveLength(1);
  });

  it('moves to the next target after max_retries, then to fallback models in order', async () => {
    const a = scripted('a', [error(503)]);
    const b = scripted('b', [error(500)]);
    const c = scripted('c', ['ok']);
    const gateway = createGateway({
      providers: { a: a.adapter, b: b.adapter, c: c.adapter },
      models: [
        { id: 'm', targets: [{ provider: 'a', weight: 1 }], fallbacks: ['n', 'o'], maxRetries: 1 },
        { id: 'n', provider: 'b', maxRetries: 0 },
        { id: 'o', provider: 'c', upstream: 'o-up' },
      ],
      routing: fast,
    });
    const result = await gateway.chatCompletions(ask('m'));
    expect([a.calls.length, b.calls.length, c.calls.length]).toEqual([2, 1, 1]);
    expect(result).toMatchObject({ model: 'm', servedModel: 'o', provider: 'c', upstreamModel: 'o-up', attempts: 4 });
  });

  it('honours retry-after-ms before retrying', async () => {
    const a = scripted('a', [error(429, { 'retry-after-ms': '60' }), 'ok']);
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    const started = Date.now();
    await gateway.chatCompletions(ask('m'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('gives a clean 504 when the first byte never comes, within the deadline', async () => {
    const a = scripted('a', ['hang']);
    const gateway = createGateway({
      providers: { a: a.adapter },
      models: [{ id: 'm', provider: 'a', timeouts: { firstByteMs: 30, totalMs: 200 } }],
      routing: fast,
    });
    const started = Date.now();
    await expect(gateway.chatCompletions(ask('m'))).rejects.toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(a.calls.every((c) => c.signal.aborted)).toBe(true);
  });

  it('applies the per-request total deadline override within the ceiling', async () => {
    const a = scripted('a', ['hang']);
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    const started = Date.now();
    await expect(gateway.chatCompletions(ask('m'), { timeoutMs: 50, maxRetries: 0 })).rejects.toMatchObject({
      status: 504,
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers 504, not 503, when the total deadline has passed before any target could be tried', async () => {
    // A machine so loaded that the deadline passes between the call's start and its first target's turn, before the
    // deadline's timer has run: every read of the clock here is 10 ms after the one before.
    const a = scripted('a', ['ok']);
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    let now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => (now += 10));
    try {
      await expect(gateway.chatCompletions(ask('m'), { timeoutMs: 5, maxRetries: 0 })).rejects.toMatchObject({
        status: 504,
        code: 'upstream_timeout',
      });
      expect(a.calls).toHaveLength(0);
    } finally {
      clock.mockRestore();
    }
  });

  it('fails over a stream that stalls before its first chunk, never after it', async () => {
    const a = scripted('a', ['stall-first']);
    const b = scripted('b', ['ok']);
    const gateway = createGateway({
      providers: { a: a.adapter, b: b.adapter },
      models: [
        {
          id: 'm',
          targets: [
            { provider: 'a', weight: 1e9 },
            { provider: 'b', weight: 1e-9 },
          ],
          maxRetries: 0,
          timeouts: { firstByteMs: 30 },
        },
      ],
      routing: fast,
    });
    const result = await gateway.chatCompletions(ask('m', { stream: true }));
    expect(result.provider).toBe('b');
    const text: string[] = [];
    for await (const chunk of result.data as AsyncIterable<ChatCompletionChunk>)
      text.push(chunk.choices[0]?.delta.content ?? '');
    expect(text.join('')).toBe('ab');
  });

  it('ends a stream that stalls mid-way with a 504 after the idle gap, without failing over', async () => {
    const a = scripted('a', ['stream']);
    const b = scripted('b', ['ok']);
    const gateway = createGateway({
      providers: { a: a.adapter, b: b.adapter },
      models: [
        {
          id: 'm',
          targets: [
            { provider: 'a', weight: 1e9 },
            { provider: 'b', weight: 1e-9 },
          ],
          timeouts: { idleMs: 30 },
        },
      ],
      routing: fast,
    });
    const result = await gateway.chatCompletions(ask('m', { stream: true }));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of result.data as AsyncIterable<ChatCompletionChunk>)
          seen.push(chunk.choices[0]?.delta.content ?? '');
      })(),
    ).rejects.toMatchObject({ status: 504 });
    expect(seen).toEqual(['a', 'b']);
    expect(b.calls).toHaveLength(0);
    expect(a.calls[0]?.signal.aborted).toBe(true);
  });

  it('aborts the upstream at once when the client leaves', async () => {
    const a = scripted('a', ['hang']);
    const gateway = createGateway({ providers: { a: a.adapter }, models: [{ id: 'm', provider: 'a' }], routing: fast });
    const client = new AbortController();
    const pending = gateway.chatCompletions(ask('m'), { signal: client.signal });
    client.abort(new Error('client gone'));
    await expect(pending).rejects.toThrow('client gone');
    expect(a.calls).toHaveLength(1);
    expect(a.calls[0]?.signal.aborted).toBe(true);
  });
});

describe('balancing and cooldown', () => {
  const targetsOf = (gateway: ReturnType<typeof createGateway>) => gateway.router.plan('m').models[0]!.targets;

  it('weighted: shares traffic by weight within tolerance', async () => {
    const a = scripted('a', ['ok']);
    const b = scripted('b', ['ok']);
    const gateway = createGateway({
      providers: { a: a.adapter, b: b.adapter },
      models: [
        {
          id: 'm',
          targets: [
            { provider: 'a', weight: 3 },
            { provider: 'b', weight: 1 },
          ],
        },
      ],
    });
    for (let i = 0; i < 2000; i++) await gateway.chatCompletions(ask('m'));
    expect(a.calls.length / 2000).toBeGreaterThan(0.7);
    expect(a.calls.length / 2000).toBeLessThan(0.8);
  });

  it('round-robin rotates the first target', () => {
    const gateway = createGateway({
      providers: { a: scripted('a', []).adapter, b: scripted('b', []).adapter },
      models: [{ id: 'm', targets: [{ provider: 'a' }, { provider: 'b' }], strategy: 'round-robin' }],
    });
    const firsts = [0, 1, 2, 3].map(
      (n) => orderTargets(targetsOf(gateway), 'round-robin', gateway.health, n)[0]!.provider,
    );
    expect(firsts).toEqual(['a', 'b', 'a', 'b']);
  });

  it('least-busy and lowest-latency order by live health', () => {
    const gateway = createGateway({
      providers: { a: scripted('a', []).adapter, b: scripted('b', []).adapter },
      models: [{ id: 'm', targets: [{ provider: 'a' }, { provider: 'b' }] }],
    });
    const health = new TargetHealth();
    health.begin('a/m');
    expect(orderTargets(targetsOf(gateway), 'least-busy', health, 0)[0]!.provider).toBe('b');
    health.success('a/m', 10);
    health.success('b/m', 50);
    expect(orderTargets(targetsOf(gateway), 'lowest-latency', health, 0)[0]!.provider).toBe('a');
  });

  it('skips a target in cooldown after consecutive failures, then probes it again', () => {
    let now = 0;
    const health = new TargetHealth({ failures: 2, cooldownMs: 1000 }, () => now);
    const gateway = createGateway({
      providers: { a: scripted('a', []).adapter, b: scripted('b', []).adapter },
      models: [{ id: 'm', targets: [{ provider: 'a' }, { provider: 'b' }] }],
    });
    health.failure('a/m');
    health.failure('a/m');
    expect(health.isCoolingDown('a/m')).toBe(true);
    expect(orderTargets(targetsOf(gateway), 'round-robin', health, 0).map((t) => t.provider)).toEqual(['b', 'a']);
    now = 1001;
    expect(orderTargets(targetsOf(gateway), 'round-robin', health, 0)[0]!.provider).toBe('a');
  });

  it('shares breaker state between replicas through a SharedCooldown', () => {
    const listeners: ((key: string, untilMs: number) => void)[] = [];
    const bus: SharedCooldown = {
      publishCooldown: (key, untilMs) => {
        for (const listener of listeners) listener(key, untilMs);
      },
      subscribeCooldown: (listener) => void listeners.push(listener),
    };
    const now = 0;
    const a = new TargetHealth({ failures: 2, cooldownMs: 1000 }, () => now, undefined, bus);
    const b = new TargetHealth({ failures: 2, cooldownMs: 1000 }, () => now, undefined, bus);
    a.failure('a/m');
    expect(b.isCoolingDown('a/m')).toBe(false);
    a.failure('a/m');
    expect(b.isCoolingDown('a/m')).toBe(true);
    b.success('a/m', 10); // b's probe succeeded: the breaker closes everywhere
    expect(a.isCoolingDown('a/m')).toBe(false);
  });

  it('snapshots in flight, latency, consecutive failures and the cooldown end of each deployment', () => {
    let now = 5_000;
    const health = new TargetHealth({ failures: 2, cooldownMs: 1000 }, () => now);
    expect(health.snapshot('a/m')).toEqual({
      key: 'a/m',
      inFlight: 0,
      latencyMs: undefined,
      consecutiveFailures: 0,
      cooldownUntil: undefined,
    });
    health.begin('a/m');
    health.success('a/m', 40);
    health.begin('b/m');
    health.failure('b/m');
    expect(health.snapshot()).toEqual([
      { key: 'a/m', inFlight: 1, latencyMs: 40, consecutiveFailures: 0, cooldownUntil: undefined },
      { key: 'b/m', inFlight: 1, latencyMs: undefined, consecutiveFailures: 1, cooldownUntil: undefined },
    ]);
    health.failure('b/m');
    expect(health.snapshot('b/m')).toMatchObject({ consecutiveFailures: 0, cooldownUntil: 6_000 });
    now = 6_001;
    expect(health.snapshot('b/m').cooldownUntil).toBeUndefined();
  });
});

describe('retry delays', () => {
  it('reads retry-after in seconds, as a date, and retry-after-ms', () => {
    expect(retryAfterMs(error(429, { 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(error(429, { 'retry-after-ms': '150' }))).toBe(150);
    expect(retryAfterMs(error(429, { 'retry-after': new Date(10_000).toUTCString() }), 4000)).toBe(6000);
    expect(retryAfterMs(error(429))).toBeUndefined();
  });

  it('uses full jitter capped by the maximum', () => {
    expect(retryDelayMs(3, error(500), { baseMs: 100, maxMs: 500 }, () => 0.999)).toBe(499);
    expect(retryDelayMs(1, error(500), { baseMs: 100, maxMs: 500 }, () => 0.5)).toBe(100);
  });
});
