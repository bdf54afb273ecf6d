import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, type OpenAIBatchMock, openAIBatchMock, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { createAdminKey } from '../helpers/admin-keys.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';
import { chatLines, createChatBatch, fileLines, waitForStatus } from './batch-test-kit.js';

const MASTER = 'sk-master-key-for-native-batches-0123';

let upstream: MockUpstream;
let openai: OpenAIBatchMock;
let azure: OpenAIBatchMock;
let running: RunningServer;
let origin: string;
let alice: OpenAI;
let aliceId: string;
let bob: OpenAI;

interface LedgerRow {
  batch_id?: string | null;
  model: string;
  provider: string | null;
  upstream_model: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  status: number;
}

/** The ledger rows of batch `id` (the ledger is written asynchronously: polled until `count` are there). */
async function ledgerRows(id: string, count: number): Promise<LedgerRow[]> {
  let rows: LedgerRow[] = [];
  await expect
    .poll(async () => {
      const res = await fetch(`${origin}/admin/requests?key=${aliceId}&limit=500`, {
        headers: { authorization: `Bearer ${MASTER}` },
      });
      rows = ((await res.json()) as { data: LedgerRow[] }).data.filter((r) => r.batch_id === id);
      return rows.length;
    })
    .toBe(count);
  return rows;
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-native-batches-'));
  openai = openAIBatchMock({ prefix: '/v1', pollsToComplete: 2 });
  azure = openAIBatchMock({ prefix: '/openai', pollsToComplete: 2 });
  upstream = await startMockUpstream({ routes: { ...openai.routes, ...azure.routes } });
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'switchyard.db')}" }
server: { port: 0 }
batches: { poll_ms: 50, upstream_poll_ms: 50 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${upstream.url}/v1" }
  azure: { adapter: azure, api_key: azure-upstream-key-0000, base_url: "${upstream.url}" }
models:
  - { id: gpt-4o-mini, provider: openai, price: { input: 0.15, output: 0.6 } }
  - { id: gpt-4o-azure, provider: azure, upstream: my-global-batch, price: { input: 2.5, output: 10, batch_discount: 0.4 } }
routing: { max_retries: 0 }
`);
  origin = running.url.replace(/\/v1$/, '');
  const [a, b] = await Promise.all([
    createAdminKey(origin, MASTER, { name: 'alice' }),
    createAdminKey(origin, MASTER, { name: 'bob' }),
  ]);
  aliceId = a.id;
  alice = new OpenAI({ baseURL: running.url, apiKey: a.key, maxRetries: 0 });
  bob = new OpenAI({ baseURL: running.url, apiKey: b.key, maxRetries: 0 });
});
afterAll(async () => {
  await running?.shutdown(2_000);
  await upstream?.close();
});

describe('/v1/batches passed to the provider batch API', () => {
  it('runs a 100-line batch on OpenAI batch API: uploaded, polled, output copied per key, each line booked at half price', async () => {
    const created = await createChatBatch(
      alice,
      chatLines(100, () => 'gpt-4o-mini', 'native-openai'),
      { run: 'native' },
    );
    expect(created).toMatchObject({ object: 'batch', status: 'in_progress', model: 'gpt-4o-mini' });
    // Uploaded once and created upstream, with the upstream's model id and the key never sent.
    const [upload] = upstream.requestsTo('POST /v1/files');
    expect(upstream.requestsTo('POST /v1/files')).toHaveLength(1);
    expect(upload?.headers.authorization).toBe('Bearer sk-upstream-openai-0000');
    const [remote] = [...openai.batches.values()];
    expect(remote?.lines).toHaveLength(100);
    expect(remote?.lines[0]).toMatchObject({ custom_id: 'req-0', url: '/v1/chat/completions' });
    expect(remote?.object).toMatchObject({ endpoint: '/v1/chat/completions', metadata: { run: 'native' } });
    // No line reached the upstream's chat endpoint: the upstream ran them.
    expect(upstream.requestsTo('POST /v1/chat/completions')).toHaveLength(0);

    const done = await waitForStatus(alice, created.id, ['completed', 'failed']);
    expect(done).toMatchObject({
      status: 'completed',
      request_counts: { total: 100, completed: 100, failed: 0 },
      error_file_id: null,
      usage: { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 },
    });
    expect(done.output_file_id).toMatch(/^file-/);
    const lines = await fileLines(alice, done.output_file_id);
    expect(lines.map((l) => l.custom_id)).toEqual(Array.from({ length: 100 }, (_, i) => `req-${i}`));
    expect(lines[7]).toMatchObject({
      response: { status_code: 200, body: { object: 'chat.completion', model: 'gpt-4o-mini' } },
    });
    // The output file is the key's: another key does not see it.
    await expect(bob.files.retrieve(done.output_file_id as string)).rejects.toMatchObject({ status: 404 });
    await expect(bob.batches.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    const rows = await ledgerRows(created.id, 100);
    for (const row of rows) {
      expect(row).toMatchObject({ model: 'gpt-4o-mini', provider: 'openai', status: 200 });
      expect(row.cost_usd).toBeCloseTo(((10 * 0.15 + 5 * 0.6) / 1e6) * 0.5, 12);
    }
  });

  it('runs an Azure batch on its global batch API, with the deployment name, endpoints without /v1 and the configured discount', async () => {
    const jsonl = `${chatLines(3, () => 'gpt-4o-azure', 'native-azure')}`;
    const created = await createChatBatch(alice, jsonl);
    expect(upstream.requestsTo('POST /openai/files')).toHaveLength(1);
    expect(upstream.requestsTo('POST /openai/batches')[0]?.query['api-version']).toBe('2024-10-21');
    const [remote] = [...azure.batches.values()];
    expect(remote?.object.endpoint).toBe('/chat/completions');
    expect(remote?.lines.map((l) => [l.url, l.body.model])).toEqual([
      ['/chat/completions', 'my-global-batch'],
      ['/chat/completions', 'my-global-batch'],
      ['/chat/completions', 'my-global-batch'],
    ]);
    const done = await waitForStatus(alice, created.id, ['completed', 'failed']);
    expect(done.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    const lines = await fileLines(alice, done.output_file_id);
    expect(lines.every((l) => l.response?.body.model === 'gpt-4o-azure')).toBe(true);
    const rows = await ledgerRows(created.id, 3);
    for (const row of rows) {
      expect(row).toMatchObject({ provider: 'azure', upstream_model: 'my-global-batch' });
      expect(row.cost_usd).toBeCloseTo(((10 * 2.5 + 5 * 10) / 1e6) * 0.4, 12);
    }
  });

  it('forwards a cancel to the upstream and ends cancelled with no line run', async () => {
    const created = await createChatBatch(
      alice,
      chatLines(5, () => 'gpt-4o-mini', 'native-cancel'),
    );
    const cancelling = await alice.batches.cancel(created.id);
    expect(cancelling.status).toBe('cancelling');
    expect(upstream.requestsTo('POST /v1/batches/*/cancel')).toHaveLength(1);
    const done = await waitForStatus(alice, created.id, ['cancelled']);
    expect(done).toMatchObject({ output_file_id: null, request_counts: { total: 5, completed: 0, failed: 0 } });
  });

  it("cancels the upstream batch at its next poll once the key's budget is spent", async () => {
    // A batch API that keeps the batch in progress, and a live answer of 100,000 output tokens: 0.06 USD.
    const slow = openAIBatchMock({ prefix: '/v1', pollsToComplete: 1_000_000 });
    for (const [key, route] of Object.entries(slow.routes)) upstream.route(key, route);
    const text = { id: 'chatcmpl-big', object: 'chat.completion', created: 1, model: 'gpt-4o-mini' };
    upstream.route('POST /v1/chat/completions', {
      json: {
        ...text,
        choices: [{ index: 0, message: { role: 'assistant', content: 'long' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 100_000, total_tokens: 100_010 },
      },
    });
    const budgeted = await createAdminKey(origin, MASTER, { name: 'native-budget', budget_usd: 0.05 });
    const client = new OpenAI({ baseURL: running.url, apiKey: budgeted.key, maxRetries: 0 });
    const created = await createChatBatch(
      client,
      chatLines(4, () => 'gpt-4o-mini', 'native-budget', { max_tokens: 10 }),
    );
    expect(created.status).toBe('in_progress');
    // Polled while the budget is not spent: not cancelled.
    await expect.poll(() => [...slow.batches.values()][0]?.polls ?? 0).toBeGreaterThan(1);
    const cancels = upstream.requestsTo('POST /v1/batches/*/cancel').length;
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'spend it' }] });
    const done = await waitForStatus(client, created.id, ['cancelled', 'completed']);
    expect(done.status).toBe('cancelled');
    expect(upstream.requestsTo('POST /v1/batches/*/cancel')).toHaveLength(cancels + 1);
    expect(done.errors?.data).toEqual([expect.objectContaining({ code: 'insufficient_quota' })]);
    expect(done.request_counts).toMatchObject({ total: 4, completed: 0 });
  });

  it('runs a batch mixing models in the gateway, line by line', async () => {
    const before = upstream.requestsTo('POST /v1/files').length;
    const created = await createChatBatch(
      alice,
      chatLines(2, (i) => (i === 0 ? 'gpt-4o-mini' : 'gpt-4o-azure'), 'mixed'),
    );
    expect(upstream.requestsTo('POST /v1/files')).toHaveLength(before);
    expect(created.status).toBe('in_progress');
  });
});
