import { describe, expect, it } from 'vitest';
import { ADAPTER_SPEC_VERSION, GatewayError, type ProviderAdapter, modelPattern } from '../src/index.js';
import { MAX_CACHED_PLANS, ModelRouter } from '../src/gateway/model-router.js';

const adapter = (name: string): ProviderAdapter => ({ specVersion: ADAPTER_SPEC_VERSION, adapter: name });
const openai = adapter('openai');
const anthropic = adapter('anthropic');
const google = adapter('google');

describe('modelPattern', () => {
  it.each([
    ['claude-*', 'claude-sonnet-4-5', true],
    ['claude-*', 'claude-', true],
    ['claude-*', 'xclaude-a', false],
    ['*-mini', 'gpt-4o-mini', true],
    ['*-mini', 'gpt-4o-mini-2', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'acb', false],
    ['a*bc*bc', 'abc', false],
    ['a*bc*bc', 'abcbc', true],
    ['*', 'anything/at-all', true],
    ['gpt.4*', 'gpt-4o', false],
    ['exact', 'exact', true],
    ['exact', 'exactly', false],
  ])('%s matches %s: %s', (pattern, id, expected) => {
    expect(modelPattern(pattern).matches(id)).toBe(expected);
  });

  it('matches a 256-character id against a pattern of many stars in linear time', () => {
    const pattern = modelPattern(`${'a*'.repeat(40)}b`);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) pattern.matches('a'.repeat(256));
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('ModelRouter: aliases and patterns', () => {
  const router = new ModelRouter(
    { openai, anthropic, google },
    [
      {
        id: 'claude-sonnet-4-5',
        provider: 'anthropic',
        upstream: 'claude-sonnet-4-5-20250929',
        price: { input: 3, output: 15 },
      },
      { id: 'claude-*', provider: 'anthropic', fallbacks: ['cheap'] },
      { id: 'claude-haiku-*', provider: 'google' },
      { id: 'cheap', provider: 'openai', upstream: 'gpt-4o-mini' },
      { id: 'expensive', provider: 'openai', upstream: 'gpt-5' },
    ],
    {
      'claude-opus-5-5': 'claude-sonnet-4-5',
      'claude-next': 'claude-next-1',
      big: 'openai/gpt-5',
      'cheap-alias': 'expensive',
    },
  );

  it('routes an exact id before any pattern that matches it', () => {
    expect(router.plan('claude-sonnet-4-5').models[0]!.targets[0]).toMatchObject({
      provider: 'anthropic',
      upstreamModel: 'claude-sonnet-4-5-20250929',
      price: { input: 3, output: 15 },
    });
  });

  it('routes a pattern match with the requested id as the upstream id, longest pattern first', () => {
    expect(router.resolve('claude-opus-4-1')).toMatchObject({
      model: 'claude-opus-4-1',
      provider: 'anthropic',
      upstreamModel: 'claude-opus-4-1',
    });
    expect(router.resolve('claude-haiku-4-5')).toMatchObject({ provider: 'google', upstreamModel: 'claude-haiku-4-5' });
  });

  it("gives a pattern match the pattern's fallbacks", () => {
    expect(router.plan('claude-opus-4-1').models.map((m) => m.id)).toEqual(['claude-opus-4-1', 'cheap']);
  });

  it("routes an alias as the model it names: the plan carries the target's id, targets and price", () => {
    const plan = router.plan('claude-opus-5-5');
    expect(plan.model).toBe('claude-opus-5-5');
    expect(plan.models[0]!.id).toBe('claude-sonnet-4-5');
    expect(plan.models[0]!.targets[0]).toMatchObject({
      upstreamModel: 'claude-sonnet-4-5-20250929',
      price: { input: 3, output: 15 },
    });
    expect(router.plan('claude-next').models[0]!.targets[0]).toMatchObject({
      provider: 'anthropic',
      upstreamModel: 'claude-next-1',
    });
    expect(router.plan('big').models[0]!.targets[0]).toMatchObject({ provider: 'openai', upstreamModel: 'gpt-5' });
    expect(router.plan('cheap-alias').models[0]!.id).toBe('expensive');
  });

  it('answers 404 for what matches nothing', () => {
    expect(() => router.plan('gemini-2.5-pro')).toThrow(GatewayError);
  });

  it('remembers at most MAX_CACHED_PLANS plans however many ids clients send', () => {
    const r = new ModelRouter({ anthropic }, [{ id: '*', provider: 'anthropic' }]);
    const first = r.plan('m-0');
    expect(r.plan('m-0')).toBe(first); // remembered
    for (let i = 1; i <= MAX_CACHED_PLANS; i++) r.plan(`m-${i}`);
    expect(r.plan('m-0')).not.toBe(first); // evicted, built again
    expect(r.plan(`m-${MAX_CACHED_PLANS}`)).toBe(r.plan(`m-${MAX_CACHED_PLANS}`));
  });

  it.each([
    [{ a: 'missing' }, /Alias 'a' names 'missing'/],
    [{ cheap: 'expensive' }, /Alias 'cheap' is also a model id/],
    [{ 'x*': 'cheap' }, /'\*' is not allowed/],
    [{ a: 'cheap', b: 'a' }, /Alias 'b' names alias 'a'/],
  ])('refuses the aliases %j', (aliases, message) => {
    expect(
      () =>
        new ModelRouter(
          { openai },
          [
            { id: 'cheap', provider: 'openai' },
            { id: 'expensive', provider: 'openai' },
          ],
          aliases,
        ),
    ).toThrow(message);
  });

  it('refuses a pattern with an upstream id', () => {
    expect(() => new ModelRouter({ openai }, [{ id: 'gpt-*', provider: 'openai', upstream: 'gpt-4o' }])).toThrow(
      /pattern 'gpt-\*' sets 'upstream'/,
    );
    expect(
      () => new ModelRouter({ openai }, [{ id: 'gpt-*', targets: [{ provider: 'openai', upstream: 'x' }] }]),
    ).toThrow(/upstream/);
  });
});
