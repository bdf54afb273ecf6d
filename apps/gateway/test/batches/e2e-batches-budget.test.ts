import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { createAdminKey } from '../helpers/admin-keys.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';
import { chatLines, createChatBatch, fileLines, waitForStatus } from './batch-test-kit.js';

const MASTER = 'sk-master-key-for-budgets-0123456789';
const fixtures = testkitFixtures();

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-batch-budget-'));
  // Every answer reports 50,000 output tokens: 0.75 USD at 15 USD per million, far above each line's estimate.
  const text = fixtures.json('anthropic/anthropic-text.json') as Record<string, unknown>;
  upstream = await startMockUpstream({
    routes: { 'POST /v1/messages': { json: { ...text, usage: { input_tokens: 10, output_tokens: 50_000 } } } },
  });
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'switchyard.db')}" }
server: { port: 0 }
batches: { poll_ms: 50 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${upstream.url}" }
models:
  - { id: claude-sonnet-4-5, provider: anthropic, price: { input: 3, output: 15 } }
routing: { max_retries: 0 }
`);
  origin = running.url.replace(/\/v1$/, '');
});
afterAll(async () => {
  await running?.shutdown(2_000);
  await upstream?.close();
});

describe('key budgets on batches', () => {
  it("refuses at creation a batch whose estimate exceeds the key's remaining budget", async () => {
    const { key } = await createAdminKey(origin, MASTER, { name: 'small', budget_usd: 0.01 });
    const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
    // 20 lines of max_tokens 1,000: an estimate of at least 20 * 1,000 * 15 / 1e6 = 0.3 USD.
    await expect(
      createChatBatch(
        client,
        chatLines(20, () => 'claude-sonnet-4-5', 'too-big', { max_tokens: 1000 }),
      ),
    ).rejects.toMatchObject({
      status: 429,
      error: { code: 'insufficient_quota', type: 'insufficient_quota' },
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('stops a batch whose key runs out of budget mid-way: the remaining lines fail insufficient_quota', async () => {
    const { key } = await createAdminKey(origin, MASTER, { name: 'runs-out', budget_usd: 2 });
    const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
    const created = await createChatBatch(
      client,
      chatLines(20, () => 'claude-sonnet-4-5', 'runs-out', { max_tokens: 10 }),
    );
    expect(created.status).toBe('in_progress');
    const done = await waitForStatus(client, created.id, ['completed']);
    const calls = upstream.requests.length;
    // 0.75 USD a line against 2 USD: the budget is spent after 3 lines; lines admitted before that still finish.
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(6);
    expect(done.request_counts).toEqual({ total: 20, completed: calls, failed: 20 - calls });
    const errors = await fileLines(client, done.error_file_id);
    expect(errors).toHaveLength(20 - calls);
    for (const line of errors) {
      const code = line.error?.code ?? line.response?.body.error?.code;
      expect(code).toBe('insufficient_quota');
    }
    expect(errors.some((line) => line.response === null && line.error?.code === 'insufficient_quota')).toBe(true);
  });
});
