import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockReply, type MockUpstream, type RecordedRequest, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { createAdminKey } from '../helpers/admin-keys.js';
import { multiProviderRoutes } from '../helpers/multi-provider-upstream.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';
import { chatLines, createChatBatch, fileLines, gate, waitForStatus } from './batch-test-kit.js';

const MASTER = 'sk-master-key-for-batches-0123456789';

let upstream: MockUpstream;
let running: RunningServer;
let dir: string;
let origin: string;
let alice: OpenAI;
let aliceId: string;
let bob: OpenAI;

/** Upstream requests whose body carries `tag` (one per line run). */
const callsWith = (tag: string) => upstream.requests.filter((r) => JSON.stringify(r.json ?? '').includes(tag));

const yaml = () => `
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'switchyard.db')}" }
server: { port: 0 }
batches: { poll_ms: 50 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${upstream.url}" }
  google: { adapter: google, api_key: AIza-upstream-0000, base_url: "${upstream.url}/v1beta" }
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: text-embedding-3-small, provider: openai, price: { input: 0.02, output: 0 } }
  - { id: claude-sonnet-4-5, provider: anthropic, price: { input: 3, output: 15 } }
  - { id: gemini-2.5-flash, provider: google, price: { input: 0.3, output: 2.5, batch_discount: 0.5 } }
routing: { max_retries: 0 }
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-batches-e2e-'));
  upstream = await startMockUpstream({ routes: multiProviderRoutes() });
  running = await startGatewayFromYaml(yaml());
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
  // shutdown, not close: it also ends kept-alive client connections once nothing is in flight.
  await running?.shutdown(2_000);
  await upstream?.close();
});

describe('/v1/batches run by the gateway', () => {
  it('runs 100 chat lines on an Anthropic deployment, each once, into an output file in input order, booked with the batch id', async () => {
    const created = await createChatBatch(
      alice,
      chatLines(100, () => 'claude-sonnet-4-5', 'anthropic-100'),
      { run: 'nightly' },
    );
    expect(created).toMatchObject({
      object: 'batch',
      endpoint: '/v1/chat/completions',
      status: 'in_progress',
      completion_window: '24h',
      metadata: { run: 'nightly' },
      request_counts: { total: 100, completed: 0, failed: 0 },
    });
    expect(created.expires_at).toBe((created.created_at as number) + 24 * 3600);
    const done = await waitForStatus(alice, created.id, ['completed', 'failed']);
    expect(done).toMatchObject({
      status: 'completed',
      request_counts: { total: 100, completed: 100, failed: 0 },
      error_file_id: null,
    });
    expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
    expect(done.usage?.total_tokens).toBeGreaterThan(0);
    expect(callsWith('anthropic-100')).toHaveLength(100);
    const lines = await fileLines(alice, done.output_file_id);
    expect(lines.map((l) => l.custom_id)).toEqual(Array.from({ length: 100 }, (_, i) => `req-${i}`));
    expect(lines[0]).toMatchObject({
      error: null,
      response: { status_code: 200, body: { object: 'chat.completion', model: 'claude-sonnet-4-5' } },
    });
    expect(lines[0]?.id).toMatch(/^batch_req_/);
    expect(await alice.files.retrieve(done.output_file_id as string)).toMatchObject({
      purpose: 'batch_output',
      filename: `${created.id}_output.jsonl`,
    });
    // Every line is in the ledger under the key, tagged with the batch.
    const res = await fetch(`${origin}/admin/requests?key=${aliceId}&limit=200`, {
      headers: { authorization: `Bearer ${MASTER}` },
    });
    const rows = (
      (await res.json()) as { data: { batch_id?: string | null; status: number; cost_usd: number }[] }
    ).data.filter((r) => r.batch_id === created.id);
    expect(rows).toHaveLength(100);
    expect(rows.every((r) => r.status === 200 && r.cost_usd > 0)).toBe(true);
  });

  it('runs 100 lines on a Gemini deployment; a line naming an unknown model fails into the error file; the batch discount halves the cost', async () => {
    const jsonl = chatLines(100, (i) => (i === 50 ? 'no-such-model' : 'gemini-2.5-flash'), 'gemini-100');
    const created = await createChatBatch(alice, jsonl);
    const done = await waitForStatus(alice, created.id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 100, completed: 99, failed: 1 } });
    expect(callsWith('gemini-100')).toHaveLength(99);
    const output = await fileLines(alice, done.output_file_id);
    expect(output).toHaveLength(99);
    expect(output.every((l) => l.response?.status_code === 200 && l.response.body.object === 'chat.completion')).toBe(
      true,
    );
    const errors = await fileLines(alice, done.error_file_id);
    expect(errors).toEqual([
      expect.objectContaining({
        custom_id: 'req-50',
        error: null,
        response: expect.objectContaining({
          status_code: 404,
          body: { error: expect.objectContaining({ code: 'model_not_found' }) },
        }),
      }),
    ]);
    const res = await fetch(`${origin}/admin/requests?key=${aliceId}&limit=500`, {
      headers: { authorization: `Bearer ${MASTER}` },
    });
    const rows = (
      (await res.json()) as {
        data: {
          batch_id?: string | null;
          prompt_tokens: number;
          completion_tokens: number;
          cost_usd: number;
          status: number;
        }[];
      }
    ).data.filter((r) => r.batch_id === created.id && r.status === 200);
    expect(rows).toHaveLength(99);
    for (const row of rows)
      expect(row.cost_usd).toBeCloseTo(((row.prompt_tokens * 0.3 + row.completion_tokens * 2.5) / 1e6) * 0.5, 12);
  });

  it('runs /v1/embeddings, /v1/responses and /v1/completions batches through their own call paths', async () => {
    const embed = (i: number) =>
      JSON.stringify({
        custom_id: `e-${i}`,
        method: 'POST',
        url: '/v1/embeddings',
        body: { model: 'text-embedding-3-small', input: `embed ${i}` },
      });
    const embedFile = await alice.files.create({
      file: new File([[0, 1, 2].map(embed).join('\n')], 'e.jsonl'),
      purpose: 'batch',
    });
    const embeddings = await alice.batches.create({
      input_file_id: embedFile.id,
      endpoint: '/v1/embeddings',
      completion_window: '24h',
    });
    const respond = (i: number) =>
      JSON.stringify({
        custom_id: `r-${i}`,
        method: 'POST',
        url: '/v1/responses',
        body: { model: 'claude-sonnet-4-5', input: `responses-batch ${i}` },
      });
    const respFile = await alice.files.create({
      file: new File([[0, 1].map(respond).join('\n')], 'r.jsonl'),
      purpose: 'batch',
    });
    const responses = await alice.batches.create({
      input_file_id: respFile.id,
      endpoint: '/v1/responses',
      completion_window: '24h',
    });
    const complete = (i: number) =>
      JSON.stringify({
        custom_id: `c-${i}`,
        method: 'POST',
        url: '/v1/completions',
        body: { model: 'claude-sonnet-4-5', prompt: `completions-batch ${i}`, max_tokens: 16 },
      });
    const completionsFile = await alice.files.create({
      file: new File([[0, 1].map(complete).join('\n')], 'c.jsonl'),
      purpose: 'batch',
    });
    const completions = await alice.batches.create({
      input_file_id: completionsFile.id,
      endpoint: '/v1/completions',
      completion_window: '24h',
    });
    const embedded = await waitForStatus(alice, embeddings.id, ['completed']);
    expect(embedded.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    const vectors = await fileLines(alice, embedded.output_file_id);
    expect(vectors.map((l) => [l.custom_id, l.response?.body.object])).toEqual([
      ['e-0', 'list'],
      ['e-1', 'list'],
      ['e-2', 'list'],
    ]);
    const answered = await waitForStatus(alice, responses.id, ['completed']);
    expect(answered.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
    const answers = await fileLines(alice, answered.output_file_id);
    expect(answers.map((l) => [l.custom_id, l.response?.status_code, l.response?.body.object])).toEqual([
      ['r-0', 200, 'response'],
      ['r-1', 200, 'response'],
    ]);
    expect(callsWith('responses-batch')).toHaveLength(2);
    const completed = await waitForStatus(alice, completions.id, ['completed']);
    expect(completed.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
    const texts = await fileLines(alice, completed.output_file_id);
    expect(texts.map((l) => [l.custom_id, l.response?.status_code, l.response?.body.object])).toEqual([
      ['c-0', 200, 'text_completion'],
      ['c-1', 200, 'text_completion'],
    ]);
    expect(callsWith('completions-batch')).toHaveLength(2);
  });

  it("keeps a key's batches from every other key (404) and lists them newest first", async () => {
    const created = await createChatBatch(
      alice,
      chatLines(1, () => 'claude-sonnet-4-5', 'isolation'),
    );
    await expect(bob.batches.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(bob.batches.cancel(created.id)).rejects.toMatchObject({ status: 404 });
    expect((await bob.batches.list()).data.map((b) => b.id)).not.toContain(created.id);
    expect((await alice.batches.list({ limit: 1 })).data[0]?.id).toBe(created.id);
    await waitForStatus(alice, created.id, ['completed']);
  });

  it('refuses a bad endpoint, a missing file and a file of the wrong purpose with errors naming them; fails a malformed input at validation', async () => {
    const file = await alice.files.create({ file: new File(['{}'], 'x.jsonl'), purpose: 'user_data' });
    await expect(
      alice.batches.create({ input_file_id: file.id, endpoint: '/v1/moderations', completion_window: '24h' }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'endpoint' } });
    await expect(
      alice.batches.create({
        input_file_id: 'file-000000000000000000000000dead',
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      alice.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'input_file_id' } });
    const bad = await createChatBatch(
      alice,
      `${chatLines(1, () => 'claude-sonnet-4-5', 'bad')}\nnot json\n{"custom_id":"x","method":"POST","url":"/v1/embeddings","body":{"model":"m"}}`,
    );
    expect(bad).toMatchObject({
      status: 'failed',
      errors: {
        object: 'list',
        data: [
          { code: 'invalid_json_line', line: 2 },
          { code: 'mismatched_endpoint', line: 3, param: 'url' },
        ],
      },
    });
  });

  it('cancels mid-way: lines running finish, the others fail batch_cancelled, and no more upstream calls are made', async () => {
    const held = gate();
    const route = multiProviderRoutes()['POST /v1/messages'] as (request: RecordedRequest, call: number) => MockReply;
    upstream.route('POST /v1/messages', async (request, call) => {
      if (JSON.stringify(request.json).includes('cancel-me')) await held.wait();
      return route(request, call);
    });
    const created = await createChatBatch(
      alice,
      chatLines(100, () => 'claude-sonnet-4-5', 'cancel-me'),
    );
    await expect.poll(() => callsWith('cancel-me').length, { timeout: 10_000, interval: 20 }).toBe(4);
    expect((await alice.batches.cancel(created.id)).status).toBe('cancelling');
    held.open();
    const done = await waitForStatus(alice, created.id, ['cancelled']);
    expect(done.cancelled_at).toBeGreaterThanOrEqual(done.cancelling_at as number);
    expect(callsWith('cancel-me')).toHaveLength(4);
    expect(done.request_counts).toEqual({ total: 100, completed: 4, failed: 96 });
    const errors = await fileLines(alice, done.error_file_id);
    expect(errors).toHaveLength(96);
    expect(errors[0]).toMatchObject({ response: null, error: { code: 'batch_cancelled' } });
    expect(await fileLines(alice, done.output_file_id)).toHaveLength(4);
    upstream.route('POST /v1/messages', route);
  });

  it('resumes after a restart without running a finished line again (100 upstream calls in all)', async () => {
    const held = gate();
    const route = multiProviderRoutes()['POST /v1/messages'] as (request: RecordedRequest, call: number) => MockReply;
    upstream.route('POST /v1/messages', async (request, call) => {
      if (JSON.stringify(request.json).includes('restart-me') && callsWith('restart-me').length > 30) await held.wait();
      return route(request, call);
    });
    const created = await createChatBatch(
      alice,
      chatLines(100, () => 'claude-sonnet-4-5', 'restart-me'),
    );
    await expect.poll(() => callsWith('restart-me').length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(30);
    const closed = running.close();
    held.open();
    await closed;
    const before = callsWith('restart-me').length;
    expect(before).toBeGreaterThan(30);
    expect(before).toBeLessThan(40);
    upstream.route('POST /v1/messages', route);
    running = await startGatewayFromYaml(yaml());
    alice = new OpenAI({ baseURL: running.url, apiKey: alice.apiKey, maxRetries: 0 });
    const done = await waitForStatus(alice, created.id, ['completed']);
    expect(done.request_counts).toEqual({ total: 100, completed: 100, failed: 0 });
    expect(callsWith('restart-me')).toHaveLength(100);
    const customIds = callsWith('restart-me').map((r) => /line (\d+)/.exec(JSON.stringify(r.json))?.[1]);
    expect(new Set(customIds).size).toBe(100);
    expect((await fileLines(alice, done.output_file_id)).map((l) => l.custom_id)).toEqual(
      Array.from({ length: 100 }, (_, i) => `req-${i}`),
    );
  });
});
