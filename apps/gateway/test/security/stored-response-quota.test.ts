import { type TestPostgres, startPostgres } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayWithUpstreams, startGatewayWithUpstreams } from '../helpers/gateway-with-upstreams.js';
import { completion } from './accounts-gateway.js';

// Attack (issue #38, item 3): one key could fill the response store (memory or database) for everyone. Every store
// (memory, SQLite and Postgres are each tried) now keeps at most `responses.max_stored_bytes_per_key` bytes per key
// (the key's oldest responses go first), the memory store at most `responses.memory_bytes` in all, and a continuation
// of a response that is gone is a 400 in OpenAI's shape naming `previous_response_id`.

const KEY = 'sk-switchyard-quota-a-0123456789';
const OTHER = 'sk-switchyard-quota-b-0123456789';
const KB = 1000;

/** The error a call failed with (an OpenAI SDK APIError), or a failure when it succeeded. */
async function failure(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

let postgres: TestPostgres | undefined;
afterAll(() => postgres?.close());

describe.each([
  ['in memory', async () => ''],
  ['on SQLite', async () => 'store: { sqlite: ":memory:" }'],
  [
    'on Postgres',
    async () => {
      postgres = await startPostgres();
      return `store: { postgres: "${await postgres.createDatabase('quota')}" }`;
    },
  ],
])('per-key quota of stored bytes %s', (_name, storeConfig) => {
  let gateway: GatewayWithUpstreams<'openai'>;
  let a: OpenAI;
  let b: OpenAI;
  beforeAll(async () => {
    const storeYaml = await storeConfig();
    gateway = await startGatewayWithUpstreams({
      upstreams: { openai: { routes: { 'POST /v1/chat/completions': { json: completion('m', 1, 1) } } } },
      config: (url) => `
keys: ["${KEY}", "${OTHER}"]
server: { port: 0 }
${storeYaml}
responses: { max_stored_bytes_per_key: 120000, memory_bytes: 1000000 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${url.openai}/v1" }
models:
  - { id: m, provider: openai }
`,
      clientTimeoutMs: 10_000,
    });
    a = gateway.openai;
    b = gateway.openaiWithKey(OTHER);
  }, 120_000);
  afterAll(() => gateway?.close());

  it("drops a key's oldest responses beyond its quota; continuing one that is gone is a 400 naming previous_response_id", async () => {
    const kept = await b.responses.create({ model: 'm', input: 'y'.repeat(50 * KB) });
    const first = await a.responses.create({ model: 'm', input: 'x'.repeat(50 * KB) });
    const second = await a.responses.create({ model: 'm', input: 'small', previous_response_id: first.id });
    // 50 KB + 50 KB more: over 120,000 bytes, so the key's oldest (first) goes.
    await a.responses.create({ model: 'm', input: 'x'.repeat(50 * KB) });
    await a.responses.create({ model: 'm', input: 'x'.repeat(50 * KB) });
    expect((await failure(a.responses.retrieve(first.id))).status).toBe(404);

    const unknown = await failure(a.responses.create({ model: 'm', input: 'more', previous_response_id: first.id }));
    expect(unknown.status).toBe(400);
    expect(unknown.error).toMatchObject({
      type: 'invalid_request_error',
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
    expect(unknown.message).toContain(`Previous response with id '${first.id}' not found.`);

    // `second` itself is still stored, but the conversation it ends starts with `first`: never continued silently without it.
    expect((await a.responses.retrieve(second.id)).id).toBe(second.id);
    const broken = await failure(a.responses.create({ model: 'm', input: 'more', previous_response_id: second.id }));
    expect(broken.status).toBe(400);
    expect(broken.error).toMatchObject({ param: 'previous_response_id', code: 'previous_response_not_found' });
    expect(broken.message).toContain(`response '${first.id}', earlier in its conversation, is no longer stored`);

    // The other key's responses are not touched by this key's quota.
    expect((await b.responses.retrieve(kept.id)).id).toBe(kept.id);
  });

  it('refuses up front (400 naming store) an input larger than the quota, unless store is false', async () => {
    const refused = await failure(a.responses.create({ model: 'm', input: 'x'.repeat(130 * KB) }));
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      type: 'invalid_request_error',
      param: 'store',
      code: 'stored_bytes_quota_exceeded',
    });
    expect(refused.message).toMatch(/more than the 120000 bytes a key may keep/);
    const unstored = await a.responses.create({ model: 'm', input: 'x'.repeat(130 * KB), store: false });
    expect(unstored.status).toBe('completed');
  });
});

describe('the in-memory store is bounded in bytes for all keys together', () => {
  it('drops the oldest responses of any key beyond responses.memory_bytes', async () => {
    const gateway = await startGatewayWithUpstreams({
      upstreams: { openai: { routes: { 'POST /v1/chat/completions': { json: completion('m', 1, 1) } } } },
      config: (url) => `
keys: ["${KEY}", "${OTHER}"]
server: { port: 0 }
responses: { max_stored_bytes_per_key: 180000, memory_bytes: 200000 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${url.openai}/v1" }
models:
  - { id: m, provider: openai }
`,
    });
    try {
      const a = gateway.openai;
      const b = gateway.openaiWithKey(OTHER);
      const oldest = await a.responses.create({ model: 'm', input: 'x'.repeat(60 * KB) });
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push((await b.responses.create({ model: 'm', input: 'y'.repeat(40 * KB) })).id);
      // 60 KB + 4 x 40 KB exceeds 200,000 bytes (each key is within its own 180,000): the oldest response goes.
      expect((await failure(a.responses.retrieve(oldest.id))).status).toBe(404);
      for (const id of ids) expect((await b.responses.retrieve(id)).id).toBe(id);
    } finally {
      await gateway.close();
    }
  });
});
