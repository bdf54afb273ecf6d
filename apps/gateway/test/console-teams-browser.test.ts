import { type MockUpstream, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { createAdminKey } from './helpers/admin-keys.js';
import { launchConsolePage, signInWithMasterKey } from './helpers/console-page.js';
import { multiProviderRoutes } from './helpers/multi-provider-upstream.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

/**
 * The console's Teams and End users & sessions pages in a real browser (Chromium, see `launchConsolePage`):
 * an organisation and its team with their spend against their budgets, and the end users and agent sessions of calls
 * made with the official openai SDK, each drilled into by model (and a session by agent).
 */
const MASTER = 'sk-master-console-teams-0123456789';
const MODEL = 'claude-sonnet-4-5';

let upstream: MockUpstream;
let running: RunningServer;
let browser: Browser;
let page: Page;
let origin: string;

/** `POST /admin/<path>` with the master key; returns the created object. */
async function adminPost(path: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await fetch(`${origin}/admin/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /admin/${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/** `GET /admin/<path>` with the master key. */
async function adminGet<T>(path: string): Promise<T> {
  const res = await fetch(`${origin}/admin/${path}`, { headers: { authorization: `Bearer ${MASTER}` } });
  if (!res.ok) throw new Error(`GET /admin/${path} answered ${res.status}`);
  return (await res.json()) as T;
}

async function signedIn(): Promise<Page> {
  await signInWithMasterKey(page, origin, MASTER);
  return page;
}

beforeAll(async () => {
  upstream = await startMockUpstream({ routes: multiProviderRoutes() });
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${upstream.url}" }
models:
  - { id: ${MODEL}, provider: anthropic, price: { input: 3, output: 15 } }
routing: { max_retries: 0 }
`);
  origin = running.url.replace(/\/v1$/, '');
  ({ browser, page } = await launchConsolePage());
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await running?.shutdown(2_000);
  await upstream?.close();
});

describe('console Teams and End users & sessions pages', { timeout: 60_000 }, () => {
  it('shows the organisation and team with spend against budget, their usage, end users and sessions', async () => {
    const org = await adminPost('organizations', { name: 'acme', budget_usd: 50, budget_period: 'month' });
    const team = await adminPost('teams', {
      name: 'research',
      organization_id: org.id,
      budget_usd: 5,
      budget_period: 'month',
      rpm_limit: 100,
    });
    const { key } = await createAdminKey(origin, MASTER, { name: 'research-bot', team_id: team.id });
    const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
    const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'Hello' }] };
    await client.chat.completions.create({ ...ask, user: 'alice' });
    await client.chat.completions.create({ ...ask, user: 'alice' });
    await client.chat.completions.create(ask, {
      headers: { 'x-claude-code-session-id': 'sess-42', 'x-claude-code-agent-id': 'agent-7' },
    });
    const teams = await adminGet<{ data: { id: string; spend_usd: number }[] }>('teams');
    const spent = teams.data.find((t) => t.id === team.id)?.spend_usd ?? 0;
    expect(spent).toBeGreaterThan(0);

    await signedIn();
    await page.getByRole('navigation').getByRole('link', { name: 'Teams', exact: true }).click();
    const teamRow = page.getByRole('table', { name: 'Teams' }).locator('tbody tr');
    await expect.poll(async () => (await teamRow.allTextContents()).join('|')).toContain('research');
    expect(await teamRow.count()).toBe(1);
    const teamText = await teamRow.first().textContent();
    expect(teamText).toContain('research');
    expect(teamText).toContain('acme');
    expect(teamText).toContain('100 / – / –');
    const spendText = await page.getByTestId(`spend-${team.id}`).textContent();
    expect(spendText).toMatch(/^\$[0-9.]+ of \$5\.00 per month$/);
    expect(spendText).not.toMatch(/^\$0 /);
    const orgText = await page.getByRole('table', { name: 'Organizations' }).locator('tbody tr').first().textContent();
    expect(orgText).toContain('acme');
    expect(orgText).toContain('of $50.00 per month');

    await page.getByRole('button', { name: 'research', exact: true }).click();
    const byModel = page.getByRole('region', { name: 'Usage of research' }).locator('tbody tr');
    await expect.poll(() => byModel.count()).toBeGreaterThan(0);
    const modelRows = await byModel.allTextContents();
    expect(modelRows.some((row) => row.startsWith(`${MODEL}3`))).toBe(true);
    expect(modelRows.some((row) => row.startsWith('research-bot3'))).toBe(true);

    await page.getByRole('navigation').getByRole('link', { name: 'End users & sessions' }).click();
    const users = page.getByRole('region', { name: 'End users' });
    await expect.poll(async () => (await users.locator('tbody tr').allTextContents()).join('|')).toContain('alice');
    const alice = (await users.locator('tbody tr').allTextContents()).find((row) => row.includes('alice'));
    expect(alice).toMatch(/^alice2/);
    const sessions = page.getByRole('region', { name: 'Agent sessions' });
    await expect
      .poll(async () => (await sessions.locator('tbody tr').allTextContents()).join('|'))
      .toContain('sess-42');
    await sessions.getByRole('button', { name: 'sess-42' }).click();
    const sessionUsage = page.getByRole('region', { name: 'Usage of Session sess-42' });
    await expect
      .poll(async () => (await sessionUsage.locator('tbody tr').allTextContents()).join('|'))
      .toContain(MODEL);
    expect((await sessionUsage.locator('tbody tr').allTextContents()).join('|')).toContain('agent-7');
  });
});
