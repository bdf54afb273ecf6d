import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockReply, type MockUpstream, type RecordedRequest, startMockUpstream } from '@switchyard/testkit';
import { startPostgres, type TestPostgres } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { createAdminKey } from '../helpers/admin-keys.js';
import { multiProviderRoutes } from '../helpers/multi-provider-upstream.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';
import { chatLines, createChatBatch, fileLines, gate, waitForStatus } from './batch-test-kit.js';

const MASTER = 'sk-master-key-for-replicas-0123456789';

let postgres: TestPostgres;
let upstream: MockUpstream;
const replicas: RunningServer[] = [];
const held = gate();

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-batch-replicas-'));
  [postgres, upstream] = await Promise.all([startPostgres(), startMockUpstream()]);
  // Each replica reaches the mock under its own prefix, so the test knows which replica ran each line. Answers wait
  // until both replicas hold lines.
  const messages = multiProviderRoutes()['POST /v1/messages'] as (request: RecordedRequest, call: number) => MockReply;
  for (const name of ['a', 'b']) {
    upstream.route(`POST /${name}/v1/messages`, async (request, call) => {
      await held.wait();
      return messages(request, call);
    });
  }
  for (const name of ['a', 'b']) {
    replicas.push(
      await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { postgres: "${postgres.url()}", timeout_ms: 5000 }
files: { dir: "${join(dir, 'shared-files')}" }
server: { port: 0 }
batches: { poll_ms: 50 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${upstream.url}/${name}" }
models:
  - { id: claude-sonnet-4-5, provider: anthropic, price: { input: 3, output: 15 } }
routing: { max_retries: 0 }
`),
    );
  }
}, 60_000);
afterAll(async () => {
  held.open();
  for (const replica of replicas) await replica.shutdown(2_000);
  await upstream?.close();
  await postgres?.close();
});

describe('two replicas on Postgres', () => {
  it('share one batch of 100 lines, each line run exactly once', async () => {
    const [a, b] = replicas as [RunningServer, RunningServer];
    const { key } = await createAdminKey(a.url.replace(/\/v1$/, ''), MASTER, { name: 'replicas' });
    const viaA = new OpenAI({ baseURL: a.url, apiKey: key, maxRetries: 0 });
    const viaB = new OpenAI({ baseURL: b.url, apiKey: key, maxRetries: 0 });
    const created = await createChatBatch(
      viaA,
      chatLines(100, () => 'claude-sonnet-4-5', 'replicas'),
    );
    // Replica A holds at most 4 lines at once: B has claimed lines of its own before any answer comes.
    await expect
      .poll(() => upstream.requestsTo('POST /b/v1/messages').length, { timeout: 10_000, interval: 20 })
      .toBeGreaterThan(0);
    await expect
      .poll(() => upstream.requestsTo('POST /a/v1/messages').length, { timeout: 10_000, interval: 20 })
      .toBeGreaterThan(0);
    held.open();
    const done = await waitForStatus(viaB, created.id, ['completed']);
    expect(done.request_counts).toEqual({ total: 100, completed: 100, failed: 0 });
    const byA = upstream.requestsTo('POST /a/v1/messages').length;
    const byB = upstream.requestsTo('POST /b/v1/messages').length;
    console.log(`two replicas: ${byA} lines on A, ${byB} on B`);
    expect(byA + byB).toBe(100);
    const lines = upstream.requests.map((r) => /line (\d+)/.exec(JSON.stringify(r.json))?.[1]);
    expect(new Set(lines).size).toBe(100);
    // Either replica serves the output file (shared folder, shared store).
    expect((await fileLines(viaA, done.output_file_id)).map((l) => l.custom_id)).toEqual(
      Array.from({ length: 100 }, (_, i) => `req-${i}`),
    );
  }, 60_000);
});
