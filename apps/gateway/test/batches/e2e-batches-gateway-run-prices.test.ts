import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, openAIBatchMock, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { createAdminKey } from '../helpers/admin-keys.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';
import { chatLines, createChatBatch, waitForStatus } from './batch-test-kit.js';

// `batches.native: false`: batches of an OpenAI deployment are run by the gateway, line by line, and billed at the
// gateway-run discount (1 unless configured); GET /v1/models publishes that batch price, not OpenAI's half price.

const MASTER = 'sk-master-key-for-gateway-run-prices-01';

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;
let client: OpenAI;
let keyId: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-gateway-run-prices-'));
  upstream = await startMockUpstream({ routes: { ...openaiReplayRoutes(), ...openAIBatchMock().routes } });
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'switchyard.db')}" }
server: { port: 0 }
batches: { native: false, poll_ms: 50 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o-mini, provider: openai, price: { input: 0.15, output: 0.6 } }
  - { id: gpt-4o-discounted, provider: openai, upstream: gpt-4o-mini, price: { input: 2, output: 8, batch_discount: 0.25 } }
routing: { max_retries: 0 }
`);
  origin = running.url.replace(/\/v1$/, '');
  const key = await createAdminKey(origin, MASTER, { name: 'prices' });
  keyId = key.id;
  client = new OpenAI({ baseURL: running.url, apiKey: key.key, maxRetries: 0 });
});
afterAll(async () => {
  await running?.shutdown(2_000);
  await upstream?.close();
});

describe('batch prices with batches.native: false', () => {
  it('publishes the live price as the batch price of an OpenAI model (openai SDK), a configured discount still wins', async () => {
    const model = await client.models.retrieve('gpt-4o-mini');
    expect(model).toMatchObject({ pricing: { input: 0.15, output: 0.6, batch: { input: 0.15, output: 0.6 } } });
    const listed = new Map<string, unknown>();
    for await (const entry of client.models.list()) listed.set(entry.id, entry);
    expect(listed.get('gpt-4o-mini')).toMatchObject({ pricing: { batch: { input: 0.15, output: 0.6 } } });
    expect(listed.get('gpt-4o-discounted')).toMatchObject({ pricing: { batch: { input: 0.5, output: 2 } } });
  });

  it('runs the batch in the gateway and books each line at the published batch price', async () => {
    const published = (await client.models.retrieve('gpt-4o-mini')) as unknown as {
      pricing: { batch: { input: number; output: number } };
    };
    const created = await createChatBatch(
      client,
      chatLines(3, () => 'gpt-4o-mini', 'gateway-run'),
    );
    const done = await waitForStatus(client, created.id, ['completed', 'failed']);
    expect(done.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(upstream.requestsTo('POST /v1/files'), 'nothing sent to the batch API').toHaveLength(0);
    expect(upstream.requestsTo('POST /v1/chat/completions')).toHaveLength(3);
    let rows: { batch_id?: string | null; prompt_tokens: number; completion_tokens: number; cost_usd: number }[] = [];
    await expect
      .poll(async () => {
        const res = await fetch(`${origin}/admin/requests?key=${keyId}&limit=50`, {
          headers: { authorization: `Bearer ${MASTER}` },
        });
        rows = ((await res.json()) as { data: typeof rows }).data.filter((r) => r.batch_id === created.id);
        return rows.length;
      })
      .toBe(3);
    for (const row of rows) {
      expect(row.prompt_tokens).toBeGreaterThan(0);
      const { input, output } = published.pricing.batch;
      expect(row.cost_usd).toBeCloseTo((row.prompt_tokens * input + row.completion_tokens * output) / 1e6, 12);
    }
  });
});
