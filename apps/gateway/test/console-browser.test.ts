import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';
import { ADMIN_PAGES, launchConsolePage } from './helpers/console-page.js';
import { recordedOpenAIStreamUsage as streamed } from './helpers/recorded-openai.js';

/**
 * The admin console in a real browser: Debian's Chromium driven by playwright-core (see `launchConsolePage`). One
 * browser for the file.
 * Screenshots of each page go to test-output/console/ (gitignored).
 */
/** The browser's Navigator as far as this test uses it (the gateway's tsconfig has Node's types, not the DOM's). */
type BrowserNavigator = Navigator & { clipboard: { readText(): Promise<string> } };
const SHOTS = join(import.meta.dirname, '..', 'test-output', 'console');
const MASTER = 'sk-master-key-browser-test-0123456789';
const STATIC = 'sk-static-key-browser-test-0123456789';
const XSS_NAME = '<img src=x onerror=alert(1)>';
const PRICE = { input: 2, output: 8 }; // USD per million tokens

const plain = testkitFixtures().json<{ usage: { prompt_tokens: number; completion_tokens: number } }>(
  'openai/openai-text.json',
).usage;
const cost = (u: { prompt_tokens: number; completion_tokens: number }) =>
  (u.prompt_tokens * PRICE.input + u.completion_tokens * PRICE.output) / 1e6;
/** The USD amount shown in `text` ("$0.00243"), checked against `usd` to the 3 significant digits the console shows. */
const expectUsd = (text: string | null, usd: number) =>
  expect(Math.abs(Number(/\$([\d.]+)/.exec(text ?? '')?.[1]) - usd) / usd).toBeLessThan(0.005);

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;
let browser: Browser;
let page: Page;
let dialogs: string[];
let cspViolations: string[];
let pageErrors: string[];

beforeAll(async () => {
  await rm(SHOTS, { recursive: true, force: true });
  await mkdir(SHOTS, { recursive: true });
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
  running = await startGatewayFromYaml(`
keys: ["${STATIC}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
  dead: { adapter: openai, api_key: sk-dead-000000, base_url: "http://127.0.0.1:1/v1" }
models:
  - { id: gpt-4o, provider: openai, price: { input: ${PRICE.input}, output: ${PRICE.output} } }
  - { id: gpt-4o-mini, targets: [{ provider: openai, upstream: gpt-4.1-nano }], fallbacks: [gpt-4o] }
  - { id: pool, strategy: round-robin, targets: [{ provider: dead, upstream: gpt-4.1-nano }, { provider: openai, upstream: gpt-4.1-nano }] }
routing: { max_retries: 0, cooldown: { failures: 1, seconds: 300 } }
`);
  origin = running.url.replace(/\/v1$/, '');
  ({ browser, page, dialogs, cspViolations, pageErrors } = await launchConsolePage());
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await running?.close();
  await upstream?.close();
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && page) await shot(`failed-${context.task.name.replace(/\W+/g, '-')}`);
});

/** Polls until the assertion holds; pages load over HTTP, so give a loaded CI machine time. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 50 });
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const client = (key: string) => new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
const go = (label: string) => page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();

describe('admin console in Chromium', { timeout: 60_000 }, () => {
  let secret = '';

  it('refuses a wrong master key and a key that is not the master key', async () => {
    await page.goto(`${origin}/ui/`);
    await page.getByLabel('Master key').fill('sk-not-the-master-key-000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('Wrong master key');
    await shot('sign-in-refused');
    await page.getByLabel('Master key').fill(STATIC);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('not the master key');
    expect(await page.evaluate(() => Object.keys(sessionStorage).length)).toBe(0);
    expect(await page.getByRole('navigation').count()).toBe(0);
  });

  it('signs in; the key stays in sessionStorage only, never in the URL or a cookie', async () => {
    await page.getByLabel('Master key').fill(MASTER);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([MASTER]);
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    expect((await page.context().cookies()).length).toBe(0);
    expect(page.url()).not.toContain(MASTER);
    for (const label of ADMIN_PAGES) {
      expect(await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).count()).toBe(1);
    }
  });

  it('creates a key (named like an XSS attack) and shows its secret once', async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill(XSS_NAME);
    await page.getByLabel('Models', { exact: true }).fill('gpt-4o*');
    await page.getByLabel('RPM limit').fill('100');
    await page.getByLabel('TPM limit').fill('100000');
    await page.getByLabel('Budget (USD)').fill('5');
    await page.getByLabel('Budget period').selectOption('month');
    await page.getByLabel('Expires').fill('2099-01-01T00:00');
    await page.getByLabel('Metadata').fill('{"team": "a"}');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const secretBox = page.getByTestId('new-key-secret');
    await secretBox.waitFor();
    secret = (await secretBox.textContent())!.trim();
    expect(secret).toMatch(/^sk-sy-[\w-]{20,}$/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.getByRole('button', { name: 'Copy' }).click();
    await poll(() => page.getByText('Copied.').count()).toBe(1);
    expect(await page.evaluate(() => (navigator as BrowserNavigator).clipboard.readText())).toBe(secret);
    await shot('keys-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('new-key-secret').count()).toBe(0);
  });

  it("edits a key's limits", async () => {
    const row = page.locator('tbody tr', { has: page.locator('td.key-name') });
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog', { name: 'Edit key' });
    expect(await form.getByLabel('RPM limit').inputValue()).toBe('100');
    await form.getByLabel('RPM limit').fill('120');
    await form.getByLabel('TPM limit').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => row.locator('td').nth(3).textContent()).toBe('120 RPM');
    await poll(() => page.getByRole('dialog').count()).toBe(0);
    await row.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel('RPM limit').fill('100');
    await form.getByLabel('TPM limit').fill('100000');
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => row.locator('td').nth(3).textContent()).toBe('100 RPM, 100,000 TPM');
    await row.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel('Concurrency limit').fill('3');
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => row.locator('td').nth(3).textContent()).toBe('100 RPM, 100,000 TPM, 3 at once');
    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await form.getByLabel('Concurrency limit').inputValue()).toBe('3');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows the XSS key name as text, never as markup', async () => {
    const cell = page.locator('td.key-name');
    await poll(() => cell.allTextContents()).toEqual([XSS_NAME]);
    expect(await page.locator('main img').count()).toBe(0);
    const row = page.locator('tbody tr', { has: cell });
    expect(await row.textContent()).toContain('gpt-4o*');
    expect(await row.textContent()).toContain('100 RPM, 100,000 TPM');
    expect(await row.textContent()).toContain('of $5.00 (month)');
    expect(await row.textContent()).toContain('active');
  });

  it('sees two calls made with the key through the official openai SDK in Requests and in the Usage totals', async () => {
    const completion = await client(secret).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Invent a holiday.' }],
    });
    expect(completion.choices[0]!.message.content).toBeTruthy();
    const stream = await client(secret).chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const _chunk of stream);

    await go('Requests');
    const rows = page.getByRole('table', { name: 'Requests' }).locator('tbody tr');
    await poll(() => rows.count()).toBe(2);
    await page.getByLabel('Key', { exact: true }).selectOption({ label: XSS_NAME });
    await poll(() => rows.allTextContents()).toEqual([
      expect.stringContaining(XSS_NAME),
      expect.stringContaining(XSS_NAME),
    ]);
    expect(await rows.first().textContent()).toContain('gpt-4o');
    expect(await rows.first().textContent()).toContain('openai / gpt-4o');
    expect(await rows.first().locator('td').nth(4).textContent()).toBe('200');
    await page.getByLabel('Status').selectOption('error');
    await poll(() => rows.allTextContents()).toEqual([expect.stringContaining('No requests match')]);
    await page.getByLabel('Status').selectOption('ok');
    await poll(() => rows.count()).toBe(2);
    await shot('requests');

    await go('Usage');
    await poll(() => page.getByTestId('total-requests').textContent()).toBe('2');
    const tokens = plain.prompt_tokens + plain.completion_tokens + streamed.prompt_tokens + streamed.completion_tokens;
    expect(await page.getByTestId('total-tokens').textContent()).toBe(tokens.toLocaleString('en-US'));
    const spend = cost(plain) + cost(streamed);
    expectUsd(await page.getByTestId('total-spend').textContent(), spend);
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: 'By key' }).locator('..').textContent()).toContain(XSS_NAME);
    await shot('usage');
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-01-07');
    await poll(() => page.getByTestId('total-requests').textContent()).toBe('0');
    expect(await page.getByTestId('total-spend').textContent()).toBe('$0');
  });

  it('marks a call answered from the response cache in Requests and counts it in the Usage totals', async () => {
    const ask = () =>
      client(secret)
        .chat.completions.create(
          { model: 'gpt-4o', messages: [{ role: 'user', content: 'Remember this one.' }] },
          { headers: { 'x-switchyard-cache': '60' } },
        )
        .withResponse();
    expect((await ask()).response.headers.get('x-switchyard-cache')).toBe('miss');
    expect((await ask()).response.headers.get('x-switchyard-cache')).toBe('hit');
    await go('Requests');
    const rows = page.getByRole('table', { name: 'Requests' }).locator('tbody tr');
    await page.getByLabel('Key', { exact: true }).selectOption({ label: XSS_NAME });
    await poll(() => rows.count()).toBe(4);
    expect(await rows.first().locator('td').nth(4).textContent()).toBe('200 (cache)');
    expect(await rows.nth(1).locator('td').nth(4).textContent()).toBe('200');
    await go('Usage');
    await poll(() => page.getByTestId('total-requests').textContent()).toBe('4');
    expect(await page.getByTestId('total-cache-hits').textContent()).toBe('1');
  });

  it('shows models with targets, strategy, fallbacks and live deployment health', async () => {
    await go('Models');
    const mini = page.getByRole('region', { name: 'gpt-4o-mini' });
    await mini.waitFor();
    expect(await mini.textContent()).toContain('fallbacks gpt-4o');
    expect(await mini.textContent()).toContain('openai/gpt-4.1-nano');
    // Round-robin tries the dead deployment first: it fails once, cools down, and the other deployment answers.
    expect(
      (await client(STATIC).chat.completions.create({ model: 'pool', messages: [{ role: 'user', content: 'hi' }] }))
        .choices,
    ).toHaveLength(1);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const pool = page.getByRole('region', { name: 'pool' });
    const dead = pool.locator('tbody tr', { hasText: 'dead/gpt-4.1-nano' });
    await poll(() => dead.locator('td').nth(6).textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await pool.locator('tbody tr', { hasText: 'openai/gpt-4.1-nano' }).locator('td').nth(6).textContent()).toBe(
      'healthy',
    );
    const main = page.getByRole('region', { name: 'gpt-4o', exact: true });
    await poll(async () => (await main.locator('tbody tr').first().locator('td').nth(4).textContent())?.trim()).toMatch(
      /^\d+ ms$/,
    );
    expect(await main.textContent()).toContain('healthy');
    await shot('models');
  });

  it('pages through Requests and filters them by model', async () => {
    for (let i = 0; i < 26; i++)
      await client(STATIC).chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
      });
    await go('Requests');
    await page.getByLabel('Key', { exact: true }).selectOption('static');
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Model', { exact: true }).fill('gpt-4o-mini');
    await page.getByLabel('Model', { exact: true }).press('Enter');
    const rows = page.getByRole('table', { name: 'Requests' }).locator('tbody tr');
    await poll(() => rows.count()).toBe(25);
    expect(new Set(await rows.locator('td:nth-child(3)').allTextContents())).toEqual(new Set(['gpt-4o-mini']));
    const firstPage = await rows.locator('td:first-child').allTextContents();
    await page.getByRole('button', { name: 'Older' }).click();
    await poll(() => rows.count()).toBe(1);
    expect(await page.getByText('Page 2').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Newer' }).click();
    await poll(() => rows.locator('td:first-child').allTextContents()).toEqual(firstPage);
  });

  it('streams an answer in the Playground with tokens, cost and the serving deployment', async () => {
    await go('Playground');
    await page.getByLabel('Model', { exact: true }).fill('gpt-4o');
    await page.getByLabel('Message', { exact: true }).fill('Invent a holiday.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('served-by').waitFor();
    expect(await page.getByTestId('served-by').textContent()).toBe('openai / gpt-4o');
    expect(await page.getByTestId('answer-tokens').textContent()).toBe(
      `${streamed.prompt_tokens} in + ${streamed.completion_tokens} out`,
    );
    expectUsd(await page.getByTestId('answer-cost').textContent(), cost(streamed));
    expect(await page.getByTestId('answer-cost').textContent()).toMatch(/\(config price\)$/);
    expect((await page.getByRole('list', { name: 'Conversation' }).textContent())!.length).toBeGreaterThan(100);
    await shot('playground');
    // A model without a configured price: the cost shown is the ledger's, priced from the bundled catalogue.
    await page.getByLabel('Model', { exact: true }).fill('gpt-4o-mini');
    await page.getByLabel('Message', { exact: true }).fill('And another one.');
    await page.getByRole('button', { name: 'Send' }).click();
    await poll(() => page.getByTestId('served-by').textContent()).toBe('openai / gpt-4.1-nano');
    await poll(() => page.getByTestId('answer-cost').textContent()).toMatch(/^\$0\.\d+ \(catalog price\)$/);
    const ledger = (await (
      await fetch(`${origin}/admin/requests?model=gpt-4o-mini&limit=1`, {
        headers: { authorization: `Bearer ${MASTER}` },
      })
    ).json()) as {
      data: { cost_usd: number; price_source: string }[];
    };
    expect(ledger.data[0]!.price_source).toBe('catalog');
    expectUsd(await page.getByTestId('answer-cost').textContent(), ledger.data[0]!.cost_usd);
  });

  it('rotates the key with a grace period: the new secret is shown once, both prefixes are listed, both secrets work', async () => {
    await go('Keys');
    const row = page.locator('tbody tr', { has: page.locator('td.key-name') });
    const oldPrefix = await row.locator('td').nth(1).locator('code').first().textContent();
    await row.getByRole('button', { name: 'Rotate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate key' });
    expect(await dialog.getByLabel('Old secret stays valid for').inputValue()).toBe('86400');
    await dialog.getByLabel('Old secret stays valid for').selectOption('3600');
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Key rotated' }).waitFor();
    const rotated = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^sk-sy-[A-Za-z0-9_-]{32}$/);
    expect(rotated).not.toBe(secret);
    await shot('keys-rotated-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    await poll(() => row.locator('td').nth(1).locator('code').first().textContent()).toBe(`${rotated.slice(0, 10)}…`);
    expect(await row.getByTestId('previous-prefix').textContent()).toContain(oldPrefix ?? 'missing');
    const keyView = (await (
      await fetch(`${origin}/admin/keys`, { headers: { authorization: `Bearer ${MASTER}` } })
    ).json()) as { data: { previous_key_expires_at: string | null }[] };
    const graceEnd = Date.parse(keyView.data[0]?.previous_key_expires_at ?? '');
    expect(Math.abs(graceEnd - Date.now() - 3_600_000)).toBeLessThan(60_000);
    await shot('keys-rotated');
    for (const key of [secret, rotated])
      expect(
        (await client(key).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }))
          .choices,
      ).toHaveLength(1);
    secret = rotated;
  });

  it('revokes the key after a confirmation, and the API refuses it', async () => {
    await go('Keys');
    const row = page.locator('tbody tr', { has: page.locator('td.key-name') });
    await poll(() => row.locator('td').nth(4).textContent()).toMatch(/^\$0\.0\d+ of \$5\.00 \(month\)$/);
    await shot('keys');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke key' }).waitFor();
    await shot('keys-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await poll(() => row.locator('.badge').textContent()).toBe('revoked');
    await shot('keys-revoked');
    await expect(
      client(secret).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it("lists the key's changes in the Audit page, newest first, filtered by target, with no secret shown", async () => {
    await go('Audit');
    const rows = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
    await poll(() => rows.locator('td:nth-child(3)').allTextContents()).toEqual(
      expect.arrayContaining(['key.create', 'key.update', 'key.rotate', 'key.revoke']),
    );
    const keyId = (await (
      await fetch(`${origin}/admin/keys`, { headers: { authorization: `Bearer ${MASTER}` } })
    ).json()) as { data: { id: string }[] };
    await page.getByLabel('Target').fill(keyId.data[0]?.id ?? 'missing');
    await page.getByLabel('Target').press('Enter');
    await page.getByLabel('Target').blur();
    await poll(() => rows.locator('td:nth-child(3)').allTextContents()).toEqual([
      'key.revoke',
      'key.rotate',
      'key.update',
      'key.update',
      'key.update',
      'key.create',
    ]);
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual(Array(6).fill('master_key'));
    expect(await rows.nth(0).locator('td.changes').textContent()).toContain('revoked_at: null →');
    expect(await rows.nth(3).locator('td.changes').textContent()).toContain('rpm_limit: 120 → 100');
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toContain(secret);
    expect(text).not.toContain(MASTER);
    await shot('audit');
  });

  it('ran no injected script and broke no CSP rule; signing out forgets the key', async () => {
    expect(dialogs).toEqual([]);
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Master key').waitFor();
    expect(await page.evaluate(() => Object.keys(sessionStorage).length)).toBe(0);
  });
});
