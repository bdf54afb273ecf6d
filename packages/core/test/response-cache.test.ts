import { describe, expect, it } from 'vitest';
import { LruResponseCacheStore } from '../src/index.js';
import { canonicalJson, responseCacheKey } from '../src/cache/cache-key.js';
import { parseCachedResponse, serializeCachedResponse } from '../src/cache/cached-response.js';
import { ResponseCache } from '../src/cache/response-cache.js';

const chat = (overrides: Record<string, unknown> = {}) => ({
  model: 'm',
  messages: [{ role: 'user', content: 'hi' }],
  ...overrides,
});

describe('response cache key', () => {
  it('ignores JSON member order and stream_options, but not the answer-changing fields', () => {
    const key = (request: Record<string, unknown>, scope = 'a') =>
      responseCacheKey({ operation: 'chatCompletions', request, scope });
    const base = key(
      chat({ temperature: 0, tools: [{ type: 'function', function: { name: 'f', parameters: { b: 1, a: 2 } } }] }),
    );
    expect(
      key({
        tools: [{ function: { parameters: { a: 2, b: 1 }, name: 'f' }, type: 'function' }],
        temperature: 0,
        messages: [{ content: 'hi', role: 'user' }],
        model: 'm',
      }),
    ).toBe(base);
    expect(key(chat({ stream: true, stream_options: { include_usage: true } }))).toBe(key(chat({ stream: true })));
    expect(key(chat({ stream: false }))).toBe(key(chat()));
    const distinct = [
      key(chat()),
      key(chat({ model: 'other' })),
      key(chat({ messages: [{ role: 'user', content: 'hi!' }] })),
      key(chat({ temperature: 0 })),
      key(chat({ top_p: 0.5 })),
      key(chat({ seed: 1 })),
      key(chat({ tools: [] })),
      key(chat({ stream: true })),
      key(chat({ some_vendor_field: 1 })),
      key(chat(), 'b'),
      responseCacheKey({ operation: 'embeddings', request: chat(), scope: 'a' }),
    ];
    expect(new Set(distinct).size).toBe(distinct.length);
    expect(base).toMatch(/^chatCompletions:[0-9a-f]{64}$/);
  });

  it('writes canonical JSON', () => {
    expect(canonicalJson({ b: [1, { d: null, c: undefined }], a: 'x' })).toBe('{"a":"x","b":[1,{"d":null}]}');
  });
});

describe('LruResponseCacheStore', () => {
  it('evicts the least recently used entries to stay under its byte bound and refuses entries larger than it', async () => {
    const store = new LruResponseCacheStore(1_000);
    await store.set('k1', 'x'.repeat(200), 60_000);
    await store.set('k2', 'y'.repeat(200), 60_000);
    await store.get('k1');
    await store.set('k3', 'z'.repeat(200), 60_000);
    expect(store.bytes).toBeLessThanOrEqual(1_000);
    expect(await store.get('k2')).toBeUndefined();
    expect(await store.get('k1')).toBe('x'.repeat(200));
    expect(await store.get('k3')).toBe('z'.repeat(200));
    await store.set('big', 'b'.repeat(600), 60_000);
    expect(await store.get('big')).toBeUndefined();
    expect(await store.get('k1')).toBeDefined();
  });

  it('expires entries after their TTL', async () => {
    const store = new LruResponseCacheStore();
    await store.set('k', 'v', 30);
    expect(await store.get('k')).toBe('v');
    await expect.poll(() => store.get('k'), { timeout: 2_000, interval: 10 }).toBeUndefined();
  });
});

describe('ResponseCache.plan', () => {
  const cache = new ResponseCache({ maxTtlS: 600 }, [
    { id: 'cached', provider: 'p', cache: { ttlS: 300 } },
    { id: 'shared', provider: 'p', cache: { ttlS: 300, shared: true } },
    { id: 'creative', provider: 'p', cache: { ttlS: 300, nondeterministic: true } },
    { id: 'plain', provider: 'p' },
  ]);
  const plan = (request: Record<string, unknown>, context: Parameters<ResponseCache['plan']>[2] = { scope: 'a' }) =>
    cache.plan('chatCompletions', request, context);

  it('follows the model config, a per-request TTL (capped) and no-cache', () => {
    expect(plan(chat({ model: 'cached' }))?.ttlMs).toBe(300_000);
    expect(plan(chat({ model: 'plain' }))).toBeUndefined();
    expect(plan(chat({ model: 'plain' }), { scope: 'a', directive: { ttlS: 20 } })?.ttlMs).toBe(20_000);
    expect(plan(chat({ model: 'cached' }), { scope: 'a', directive: { ttlS: 86_400 } })?.ttlMs).toBe(600_000);
    expect(plan(chat({ model: 'cached' }), { scope: 'a', directive: 'no-cache' })).toBeUndefined();
  });

  it('caches an explicit temperature above 0 only for nondeterministic models', () => {
    expect(plan(chat({ model: 'cached', temperature: 0.7 }))).toBeUndefined();
    expect(plan(chat({ model: 'plain', temperature: 0.7 }), { scope: 'a', directive: { ttlS: 60 } })).toBeUndefined();
    expect(plan(chat({ model: 'cached', temperature: 0 }))).toBeDefined();
    expect(plan(chat({ model: 'creative', temperature: 1.2 }))).toBeDefined();
  });

  it('keys entries per scope unless the model is shared; without a scope only shared models are cached', () => {
    expect(plan(chat({ model: 'cached' }), { scope: 'a' })?.key).not.toBe(
      plan(chat({ model: 'cached' }), { scope: 'b' })?.key,
    );
    expect(plan(chat({ model: 'shared' }), { scope: 'a' })?.key).toBe(
      plan(chat({ model: 'shared' }), { scope: 'b' })?.key,
    );
    expect(plan(chat({ model: 'cached' }), {})).toBeUndefined();
    expect(plan(chat({ model: 'shared' }), {})).toBeDefined();
  });
});

describe('cached entries', () => {
  it('round-trip, and anything unreadable is a miss', () => {
    const entry = {
      kind: 'completion' as const,
      body: { id: 'x' },
      servedModel: 'm',
      provider: 'p',
      upstreamModel: 'u',
      warnings: [],
      storedAt: 1,
    };
    expect(parseCachedResponse(serializeCachedResponse(entry))).toEqual(entry);
    expect(parseCachedResponse('{not json')).toBeUndefined();
    expect(parseCachedResponse(JSON.stringify({ ...entry, v: 99 }))).toBeUndefined();
    expect(
      parseCachedResponse(
        JSON.stringify({
          v: 1,
          kind: 'chunks',
          servedModel: 'm',
          provider: 'p',
          upstreamModel: 'u',
          warnings: [],
          storedAt: 1,
        }),
      ),
    ).toBeUndefined();
  });
});
