import { type MockUpstream, type TestRedis, startRedis } from '@switchyard/testkit';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { type RunningServer, startServer } from '../src/start-server.js';
import { EMBEDDINGS, startCacheTestUpstream } from './helpers/response-cache-upstream.js';

// The response cache (issue #18): the same behaviour in process (lru-cache) and in a real redis-server, seen through
// the official openai SDK against the gateway in front of a mock upstream whose every answer is different.
const MASTER = 'sk-master-0123456789abcdef-xyz';
const KEY_A = 'sk-gw-key-aaaa-0123456789abcdef';
const KEY_B = 'sk-gw-key-bbbb-0123456789abcdef';

/**
 * `redis.timeout_ms`: no healthy loopback round trip reaches it, even on a loaded machine (with 300 ms a slow lookup
 * turned an expected hit into a miss). While Redis is down commands fail at once, so the outage test does not wait.
 */
const REDIS_TIMEOUT_MS = 2_000;
let upstream: MockUpstream;
let upstreamCalls: (content: string) => number;
let redis: TestRedis;
const started: RunningServer[] = [];
let runs = 0;

beforeAll(async () => {
  ({ upstream, upstreamCalls } = await startCacheTestUpstream());
  redis = await startRedis();
});
afterAll(async () => {
  for (const server of started) await server.close();
  await upstream?.close();
  await redis?.stop();
});

async function startGateway(withRedis: boolean, keyPrefix = `cachetest${++runs}:`) {
  const yaml = `
server: { port: 0 }
keys: ["${KEY_A}", "${KEY_B}"]
admin: { master_key: "${MASTER}", console: false }
store: { sqlite: ":memory:" }
${withRedis ? `redis: { url: "${redis.url}", key_prefix: "${keyPrefix}", timeout_ms: ${REDIS_TIMEOUT_MS} }` : ''}
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: cached, provider: openai, upstream: gpt-4.1-nano, price: { input: 1, output: 2 }, cache: { ttl_s: 300 } }
  - { id: shared, provider: openai, upstream: gpt-4.1-nano, cache: { ttl_s: 300, shared: true } }
  - { id: creative, provider: openai, upstream: gpt-4.1-nano, cache: { ttl_s: 300, nondeterministic: true } }
  - { id: plain, provider: openai, upstream: gpt-4.1-nano }
  - { id: text-embedding-3-small, provider: openai, cache: { ttl_s: 300 } }
routing: { max_retries: 0 }
`;
  const logs: string[] = [];
  const running = await startServer(parseConfig(yaml, 'test.yaml', {}), {
    logger: pino({ level: 'warn' }, { write: (line: string) => void logs.push(line) }),
  });
  started.push(running);
  return { running, logs, keyPrefix };
}

let unique = 0;
/** A prompt no other test sends. */
const prompt = (what: string) => `${what} ${++unique} ${Math.random()}`;

describe.each([
  ['in process (lru-cache)', false],
  ['in Redis', true],
])('response cache %s', (_label, withRedis) => {
  let gateway: RunningServer;
  let logs: string[];
  let keyPrefix: string;
  const client = (key = KEY_A) => new OpenAI({ baseURL: gateway.url, apiKey: key, maxRetries: 0, timeout: 10_000 });
  const admin = async (path: string) =>
    (await (
      await fetch(`${gateway.url.replace(/\/v1$/, '')}/admin${path}`, {
        headers: { authorization: `Bearer ${MASTER}` },
      })
    ).json()) as { data: Record<string, unknown>[] };
  const ask = (
    content: string,
    options: { model?: string; key?: string; temperature?: number; headers?: Record<string, string> } = {},
  ) =>
    client(options.key)
      .chat.completions.create(
        { model: options.model ?? 'cached', messages: [{ role: 'user', content }], temperature: options.temperature },
        { headers: options.headers },
      )
      .withResponse();
  const askStream = async (content: string, includeUsage: boolean) => {
    const { data, response } = await client()
      .chat.completions.create({
        model: 'cached',
        messages: [{ role: 'user', content }],
        stream: true,
        stream_options: includeUsage ? { include_usage: true } : undefined,
      })
      .withResponse();
    const chunks: unknown[] = [];
    for await (const chunk of data) chunks.push(chunk);
    return { chunks, cache: response.headers.get('x-switchyard-cache') };
  };

  beforeAll(async () => {
    ({ running: gateway, logs, keyPrefix } = await startGateway(withRedis));
  });
  /** `switchyard_cache_requests_total` of chat completions with this `result`, from `GET /metrics`. */
  const cacheMetric = async (result: string) => {
    const text = await (await fetch(`${gateway.url.replace(/\/v1$/, '')}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`switchyard_cache_requests_total{operation="chat.completions",result="${result}"}`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  it('answers N identical calls with one upstream call: a miss, then hits with the same body and cost 0', async () => {
    const content = prompt('five times');
    const [hitsBefore, missesBefore] = [await cacheMetric('hit'), await cacheMetric('miss')];
    const first = await ask(content);
    expect(first.response.headers.get('x-switchyard-cache')).toBe('miss');
    expect(Number(first.response.headers.get('x-switchyard-cost-usd'))).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) {
      const again = await ask(content);
      expect(again.response.headers.get('x-switchyard-cache')).toBe('hit');
      expect(again.response.headers.get('x-switchyard-cost-usd')).toBe('0.00000000');
      expect(again.response.headers.get('x-switchyard-attempts')).toBe('0');
      expect(again.data).toEqual(first.data);
    }
    expect(upstreamCalls(content)).toBe(1);
    await expect
      .poll(async () => [(await cacheMetric('hit')) - hitsBefore, (await cacheMetric('miss')) - missesBefore])
      .toEqual([4, 1]);
  });

  it('answers identical calls made at once with one upstream call (the others wait for it and are hits)', async () => {
    const content = prompt('slow burst');
    const results = await Promise.all(Array.from({ length: 5 }, () => ask(content)));
    expect(upstreamCalls(content)).toBe(1);
    expect(results.map((r) => r.response.headers.get('x-switchyard-cache')).sort()).toEqual([
      'hit',
      'hit',
      'hit',
      'hit',
      'miss',
    ]);
    for (const r of results) expect(r.data).toEqual(results[0]!.data);
    const input = prompt('slow embeddings');
    const embeddings = await Promise.all(
      Array.from({ length: 3 }, () =>
        client().embeddings.create({ model: 'text-embedding-3-small', input }).withResponse(),
      ),
    );
    expect(embeddings.map((r) => r.response.headers.get('x-switchyard-cache')).sort()).toEqual(['hit', 'hit', 'miss']);
    expect(upstream.requestsTo(EMBEDDINGS).filter((r) => (r.json as { input: string }).input === input)).toHaveLength(
      1,
    );
  });

  it('lets calls that waited for a failed identical call fetch on their own', async () => {
    const content = prompt('flaky burst');
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => ask(content)));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect((failed[0]!.reason as InstanceType<typeof OpenAI.APIError>).status).toBe(500);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(upstreamCalls(content)).toBe(4);
  });

  it('replays a streamed answer as SSE: the same chunks, [DONE], and the usage chunk only when asked for', async () => {
    const content = prompt('stream');
    const original = await askStream(content, false);
    expect(original.cache).toBe('miss');
    expect(original.chunks.length).toBeGreaterThan(3);
    const replay = await askStream(content, false);
    expect(replay.cache).toBe('hit');
    expect(replay.chunks).toEqual(original.chunks);
    // With include_usage the replay carries the usage chunk the gateway asked the upstream for.
    const withUsage = await askStream(content, true);
    expect(withUsage.cache).toBe('hit');
    expect(withUsage.chunks.slice(0, -1)).toEqual(original.chunks);
    expect(withUsage.chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    });
    expect(upstreamCalls(content)).toBe(1);
    // On the wire: SSE ending in [DONE], no usage chunk when not asked for.
    const raw = await fetch(`${gateway.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'cached', messages: [{ role: 'user', content }], stream: true }),
    });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(raw.headers.get('x-switchyard-cache')).toBe('hit');
    const text = await raw.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(text).not.toContain('"usage"');
    expect(upstreamCalls(content)).toBe(1);
  });

  it('keeps entries of different keys apart, unless the model says cache.shared', async () => {
    const content = prompt('isolation');
    expect((await ask(content, { key: KEY_A })).response.headers.get('x-switchyard-cache')).toBe('miss');
    const other = await ask(content, { key: KEY_B });
    expect(other.response.headers.get('x-switchyard-cache')).toBe('miss');
    expect((await ask(content, { key: KEY_A })).response.headers.get('x-switchyard-cache')).toBe('hit');
    expect(upstreamCalls(content)).toBe(2);
    const sharedContent = prompt('shared');
    const a = await ask(sharedContent, { model: 'shared', key: KEY_A });
    const b = await ask(sharedContent, { model: 'shared', key: KEY_B });
    expect([a.response.headers.get('x-switchyard-cache'), b.response.headers.get('x-switchyard-cache')]).toEqual([
      'miss',
      'hit',
    ]);
    expect(b.data).toEqual(a.data);
    expect(upstreamCalls(sharedContent)).toBe(1);
  });

  it('caches an explicit temperature above 0 only where the model says cache.nondeterministic', async () => {
    const content = prompt('temperature');
    const first = await ask(content, { temperature: 0.7 });
    const second = await ask(content, { temperature: 0.7 });
    expect(first.response.headers.get('x-switchyard-cache')).toBeNull();
    expect(second.response.headers.get('x-switchyard-cache')).toBeNull();
    expect(second.data.choices[0]?.message.content).not.toBe(first.data.choices[0]?.message.content);
    expect((await ask(content, { temperature: 0 })).response.headers.get('x-switchyard-cache')).toBe('miss');
    const creative = prompt('creative');
    await ask(creative, { model: 'creative', temperature: 1.2 });
    expect(
      (await ask(creative, { model: 'creative', temperature: 1.2 })).response.headers.get('x-switchyard-cache'),
    ).toBe('hit');
    expect(upstreamCalls(content)).toBe(3);
    expect(upstreamCalls(creative)).toBe(1);
  });

  it('x-switchyard-cache: no-cache bypasses the cache; a TTL opts a request in; anything else is a 400 naming the header', async () => {
    const content = prompt('no-cache');
    await ask(content);
    const bypass = await ask(content, { headers: { 'x-switchyard-cache': 'no-cache' } });
    expect(bypass.response.headers.get('x-switchyard-cache')).toBeNull();
    expect(upstreamCalls(content)).toBe(2);
    const optIn = prompt('opt-in');
    expect((await ask(optIn, { model: 'plain' })).response.headers.get('x-switchyard-cache')).toBeNull();
    expect(
      (await ask(optIn, { model: 'plain', headers: { 'x-switchyard-cache': '60' } })).response.headers.get(
        'x-switchyard-cache',
      ),
    ).toBe('miss');
    expect(
      (await ask(optIn, { model: 'plain', headers: { 'x-switchyard-cache': '60' } })).response.headers.get(
        'x-switchyard-cache',
      ),
    ).toBe('hit');
    expect(upstreamCalls(optIn)).toBe(2);
    const error = await ask(optIn, { headers: { 'x-switchyard-cache': 'forever' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      param: 'x-switchyard-cache',
      code: 'invalid_header',
    });
  });

  it('expires entries after their TTL', async () => {
    const content = prompt('expiry');
    const ttl = { 'x-switchyard-cache': '1' };
    expect((await ask(content, { model: 'plain', headers: ttl })).response.headers.get('x-switchyard-cache')).toBe(
      'miss',
    );
    expect((await ask(content, { model: 'plain', headers: ttl })).response.headers.get('x-switchyard-cache')).toBe(
      'hit',
    );
    await expect
      .poll(
        async () => (await ask(content, { model: 'plain', headers: ttl })).response.headers.get('x-switchyard-cache'),
        { timeout: 5_000, interval: 200 },
      )
      .toBe('miss');
    expect(upstreamCalls(content)).toBe(2);
  });

  it('caches embeddings', async () => {
    const input = prompt('embed');
    const calls = () =>
      upstream.requestsTo(EMBEDDINGS).filter((r) => (r.json as { input: string }).input === input).length;
    const first = await client().embeddings.create({ model: 'text-embedding-3-small', input }).withResponse();
    const second = await client().embeddings.create({ model: 'text-embedding-3-small', input }).withResponse();
    expect([
      first.response.headers.get('x-switchyard-cache'),
      second.response.headers.get('x-switchyard-cache'),
    ]).toEqual(['miss', 'hit']);
    expect(second.data.data[0]?.embedding).toEqual(first.data.data[0]?.embedding);
    expect(calls()).toBe(1);
  });

  it('marks hits in the ledger (no tokens, cost 0), streamed or not, and counts them in /admin/usage', async () => {
    const content = prompt('ledger');
    const before = new Set((await admin('/requests?model=shared&limit=100')).data.map((row) => row.request_id));
    const [totalsBefore] = (await admin('/usage?model=shared')).data;
    await ask(content, { model: 'shared' });
    await ask(content, { model: 'shared' });
    for (let i = 0; i < 2; i++) {
      const stream = await client().chat.completions.create({
        model: 'shared',
        messages: [{ role: 'user', content }],
        stream: true,
      });
      for await (const _ of stream);
    }
    expect(upstreamCalls(content)).toBe(2);
    const rows = (await admin('/requests?model=shared&limit=100')).data.filter((row) => !before.has(row.request_id));
    expect(rows).toHaveLength(4);
    const hits = rows.filter((row) => row.cache_hit === true);
    const misses = rows.filter((row) => row.cache_hit === false);
    expect(hits.map((row) => row.stream).sort()).toEqual([false, true]);
    for (const row of hits)
      expect(row).toMatchObject({
        status: 200,
        prompt_tokens: 0,
        completion_tokens: 0,
        cost_usd: 0,
        attempts: 0,
        provider: 'openai',
      });
    expect(misses).toHaveLength(2);
    for (const row of misses)
      expect(row).toMatchObject({ status: 200, prompt_tokens: 10, completion_tokens: 20, attempts: 1 });
    const [totals] = (await admin('/usage?model=shared')).data;
    expect((totals?.cache_hits as number) - ((totalsBefore?.cache_hits as number) ?? 0)).toBe(2);
    expect((totals?.requests as number) - ((totalsBefore?.requests as number) ?? 0)).toBe(4);
  });

  it('still applies limits to hits: a hit is a request for rpm_limit', async () => {
    const created = await fetch(`${gateway.url.replace(/\/v1$/, '')}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'rpm-3', rpm_limit: 3 }),
    });
    const key = ((await created.json()) as { key: string }).key;
    const content = prompt('rpm');
    const results = [];
    for (let i = 0; i < 4; i++)
      results.push(
        await ask(content, { key }).then(
          (r) => r.response.headers.get('x-switchyard-cache'),
          (e: unknown) => (e as InstanceType<typeof OpenAI.APIError>).status,
        ),
      );
    expect(results).toEqual(['miss', 'hit', 'hit', 429]);
    expect(upstreamCalls(content)).toBe(1);
  });

  // Behaviour only a shared store has: declared in the Redis run alone (not as tests skipped in the in-process run).
  if (withRedis) {
    describe('with Redis only', () => {
      it('shares entries between replicas on the same Redis', async () => {
        const replica = (await startGateway(true, keyPrefix)).running;
        const content = prompt('replicas');
        await ask(content);
        const other = await new OpenAI({ baseURL: replica.url, apiKey: KEY_A, maxRetries: 0 }).chat.completions
          .create({ model: 'cached', messages: [{ role: 'user', content }] })
          .withResponse();
        expect(other.response.headers.get('x-switchyard-cache')).toBe('hit');
        expect(upstreamCalls(content)).toBe(1);
      });

      it('serves every call while Redis is down (lookups are misses) and logs it', async () => {
        const content = prompt('outage');
        await ask(content);
        await redis.stop();
        try {
          const during = await ask(content);
          expect(during.response.headers.get('x-switchyard-cache')).toBe('miss');
          expect(during.data.choices[0]?.message.content).toContain('answer #');
          expect(logs.some((line) => line.includes('Redis response cache unreachable'))).toBe(true);
        } finally {
          await redis.start();
        }
        expect(upstreamCalls(content)).toBe(2);
      });
    });
  }
});
