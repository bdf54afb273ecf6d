import { describe, expect, it } from 'vitest';
import { ADAPTER_SPEC_VERSION, GatewayError, type ProviderAdapter } from '../src/index.js';
import { ModelRouter } from '../src/gateway/model-router.js';

const adapter = (name: string): ProviderAdapter => ({ specVersion: ADAPTER_SPEC_VERSION, adapter: name });
const openai = adapter('openai');
const anthropic = adapter('anthropic');

describe('ModelRouter', () => {
  const router = new ModelRouter({ openai, anthropic }, [
    { id: 'fast', provider: 'openai', upstream: 'gpt-4o-mini', price: { input: 0.15, output: 0.6 } },
    { id: 'claude-sonnet-4', provider: 'anthropic' },
  ]);

  it('resolves a configured id to its provider and upstream id, with the price', () => {
    expect(router.resolve('fast')).toMatchObject({
      provider: 'openai',
      adapter: openai,
      upstreamModel: 'gpt-4o-mini',
      price: { input: 0.15, output: 0.6 },
    });
    expect(router.resolve('claude-sonnet-4')).toMatchObject({
      provider: 'anthropic',
      upstreamModel: 'claude-sonnet-4',
    });
  });

  it('resolves <provider>/<upstream id>, keeping further slashes in the upstream id', () => {
    expect(router.resolve('openai/ft:gpt-4o/org')).toMatchObject({
      provider: 'openai',
      upstreamModel: 'ft:gpt-4o/org',
    });
  });

  it('prices <provider>/<upstream id> from the configured model with the same provider and upstream id', () => {
    expect(router.resolve('openai/gpt-4o-mini').price).toEqual({ input: 0.15, output: 0.6 });
    expect(router.resolve('anthropic/gpt-4o-mini').price).toBeUndefined();
    expect(router.resolve('openai/gpt-4o').price).toBeUndefined();
  });

  it.each(['unknown', 'mistral/large', 'openai/', '/gpt'])('answers 404 model_not_found for %s', (model) => {
    try {
      router.resolve(model);
      expect.unreachable();
    } catch (error) {
      expect(GatewayError.isInstance(error) && error.status).toBe(404);
      expect((error as GatewayError).toJSON().error).toMatchObject({ code: 'model_not_found', param: 'model' });
    }
  });

  it('refuses models of unconfigured providers', () => {
    expect(() => new ModelRouter({ openai }, [{ id: 'x', provider: 'groq' }])).toThrow(/groq/);
  });
});
