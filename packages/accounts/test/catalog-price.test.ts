import { describe, expect, it } from 'vitest';
import { CATALOG_CACHE_LIMIT, catalogCacheSize, catalogPrice, resolvePrice } from '../src/index.js';

// OpenAI's published gpt-4o-mini prices, USD per million tokens (what the pinned catalogue holds).
const GPT_4O_MINI = { input: 0.15, cached_input: 0.075, output: 0.6 };

describe('catalogPrice', () => {
  it('maps the catalogue to USD per million tokens, with cache prices where it has them', () => {
    expect(catalogPrice('openai', 'gpt-4o-mini')).toEqual(GPT_4O_MINI);
    expect(catalogPrice('anthropic', 'claude-sonnet-4-20250514')).toEqual({
      input: 3,
      output: 15,
      cached_input: 0.3,
      cache_write: 3.75,
    });
    expect(catalogPrice('groq', 'llama-3.3-70b-versatile')).toMatchObject({
      input: expect.any(Number),
      output: expect.any(Number),
    });
    expect(catalogPrice('xai', 'grok-3-mini')).toMatchObject({ input: 0.3, output: 0.5 });
  });

  it('takes tiered prices at the tier of the call: every token at the higher price once the prompt passes the start', () => {
    expect(catalogPrice('google', 'gemini-2.5-pro')).toEqual({ input: 1.25, cached_input: 0.125, output: 10 });
    expect(catalogPrice('google', 'gemini-2.5-pro', 200_000)).toEqual({ input: 1.25, cached_input: 0.125, output: 10 });
    expect(catalogPrice('google', 'gemini-2.5-pro', 200_001)).toEqual({ input: 2.5, cached_input: 0.25, output: 15 });
    expect(catalogPrice('anthropic', 'claude-sonnet-4-5-20250929', 250_000)).toEqual({
      input: 6,
      output: 22.5,
      cached_input: 0.6,
      cache_write: 7.5,
    });
    expect(resolvePrice(undefined, 'anthropic', 'claude-sonnet-4-5-20250929', 250_000)).toMatchObject({
      source: 'catalog',
      price: { input: 6 },
    });
  });

  it('maps a catalogue reasoning price to reasoning', () => {
    expect(catalogPrice('openrouter', 'perplexity/sonar-deep-research')).toEqual({ input: 2, output: 8, reasoning: 3 });
  });

  it('is undefined for unknown models and providers and for self-hosted servers, never throwing', () => {
    expect(catalogPrice('openai', 'no-such-model-xyz')).toBeUndefined();
    expect(catalogPrice('switchyard-provider-nobody', 'gpt-4o-mini')).toBeUndefined();
    expect(catalogPrice('ollama', 'gpt-4o-mini')).toBeUndefined();
  });

  it('keeps a bounded number of look-ups however many model ids clients invent (#22: bounded client-keyed state)', () => {
    // Invented ids of a provider with a short catalogue: every unknown id is a scan of the provider's models, and with
    // OpenAI's (the longest) these 4,596 scans took 0.5 s idle, 1.7 s at load 13, past the 5 s timeout under more load.
    const provider = 'anthropic';
    for (let i = 0; i < CATALOG_CACHE_LIMIT + 500; i++) catalogPrice(provider, `invented-model-${i}`);
    expect(catalogCacheSize()).toBe(CATALOG_CACHE_LIMIT);
    expect(catalogPrice('openai', 'gpt-4o-mini')).toEqual(GPT_4O_MINI);
  });
});

describe('resolvePrice', () => {
  it('takes config, else the catalogue, else none', () => {
    expect(resolvePrice({ input: 1, output: 2 }, 'openai', 'gpt-4o-mini')).toEqual({
      price: { input: 1, output: 2 },
      source: 'config',
    });
    expect(resolvePrice(undefined, 'openai', 'gpt-4o-mini')).toEqual({ price: GPT_4O_MINI, source: 'catalog' });
    expect(resolvePrice(undefined, 'openai', 'no-such-model-xyz')).toEqual({ source: 'none' });
    expect(resolvePrice(undefined, undefined, undefined)).toEqual({ source: 'none' });
  });
});
