import { type MockReply, type MockUpstream, type RecordedRequest, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { chatLines, createChatBatch, gate, waitForStatus } from './batches/batch-test-kit.js';
import { createAdminKey } from './helpers/admin-keys.js';
import { launchChromium, openConsolePage, signInWithMasterKey } from './helpers/console-page.js';
import { multiProviderRoutes } from './helpers/multi-provider-upstream.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

/**
 * The console's Requests page in a real browser (Debian's Chromium, as console-browser.test.ts) while a batch made with
 * the official openai SDK runs: the batch with its progress, then its lines in the ledger naming the batch.
 */
const MASTER = 'sk-master-console-batches-0123456789';

let upstream: MockUpstream;
let running: RunningServer;
let browser: Browser;
const held = gate();

beforeAll(async () => {
  upstream = await startMockUpstream({ routes: multiProviderRoutes() });
  // Lines 0-4 are answered at once; the others wait until the test opens the gate.
  const messages = multiProviderRoutes()['POST /v1/messages'] as (request: RecordedRequest, call: number) => MockReply;
  upstream.route('POST /v1/messages', async (request, call) => {
    if (!/line [0-4]"/.test(request.bodyText)) await held.wait();
    return messages(request, call);
  });
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
batches: { poll_ms: 50, concurrency: 2 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${upstream.url}" }
models:
  - { id: claude-sonnet-4-5, provider: anthropic, price: { input: 3, output: 15 } }
routing: { max_retries: 0 }
`);
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  held.open();
  await browser?.close();
  await running?.shutdown(2_000);
  await upstream?.close();
});

describe('console Requests page with batches', { timeout: 60_000 }, () => {
  it('shows a running batch with its progress, then its lines naming the batch', async () => {
    const origin = running.url.replace(/\/v1$/, '');
    const { key } = await createAdminKey(origin, MASTER, { name: 'nightly-evals' });
    const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
    const batch = await createChatBatch(
      client,
      chatLines(10, () => 'claude-sonnet-4-5', 'console'),
    );
    await expect.poll(async () => (await client.batches.retrieve(batch.id)).request_counts?.completed).toBe(5);

    const { context, page } = await openConsolePage(browser);
    await signInWithMasterKey(page, origin, MASTER);
    await page.getByRole('navigation').getByRole('link', { name: 'Requests', exact: true }).click();
    const batchRows = page.getByRole('table', { name: 'Batches' }).locator('tbody tr');
    await expect.poll(() => batchRows.count(), { timeout: 10_000 }).toBe(1);
    const text = await batchRows.first().textContent();
    expect(text).toContain(batch.id);
    expect(text).toContain('nightly-evals');
    expect(text).toContain('claude-sonnet-4-5');
    expect(text).toContain('in_progress');
    expect(text).toContain('5 / 10');
    expect(await page.getByLabel(`${batch.id} progress`).getAttribute('value')).toBe('5');

    held.open();
    await waitForStatus(client, batch.id, ['completed']);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => batchRows.count(), { timeout: 10_000 }).toBe(0);
    const rows = page.getByRole('table', { name: 'Requests' }).locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(10);
    for (const row of await rows.allTextContents()) expect(row).toContain(`claude-sonnet-4-5 · batch ${batch.id}`);
    await context.close();
  });
});
