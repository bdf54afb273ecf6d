import { type MockRealtimeUpstream, startMockRealtimeUpstream } from '@switchyard/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openConsolePage, signInWithMasterKey } from './helpers/console-page.js';
import { endSession, nthResponseDone, openSdkSession, userTextItem } from './helpers/realtime-clients.js';
import { type RealtimeGateway, startRealtimeGateway } from './helpers/realtime-gateway.js';

/**
 * The console's Requests page in a real browser (Debian's Chromium, as console-browser.test.ts) after a realtime
 * session of two responses made with the official openai SDK: one row per response, each naming the session.
 */
const MASTER = 'sk-master-console-realtime-0123456789';
const KEY = 'sk-static-console-realtime-0123456789';

let upstream: MockRealtimeUpstream;
let gateway: RealtimeGateway;
let browser: Browser;

beforeAll(async () => {
  upstream = await startMockRealtimeUpstream();
  gateway = await startRealtimeGateway(`
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000000000, base_url: "${upstream.baseURL}" }
models:
  - { id: voice, provider: openai, upstream: gpt-realtime, price: { input: 4, output: 16, audio_input: 32, audio_output: 64 } }
`);
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await upstream?.close();
});

describe('console Requests page with realtime sessions', { timeout: 60_000 }, () => {
  it('shows each response of a realtime session as a row naming the session', async () => {
    const session = openSdkSession(gateway.tls, KEY, 'voice');
    await session.next('session.created');
    for (const [index, text] of ['Hello', 'Again'].entries()) {
      session.send(userTextItem(text));
      session.send({ type: 'response.create' });
      await nthResponseDone(session, index);
    }
    await endSession(session);
    await expect.poll(async () => (await gateway.running.accounts!.requests({ limit: 10 })).length).toBe(2);
    const ledger = await gateway.running.accounts!.requests({ limit: 10 });
    const sessionId = ledger[0]!.session_id!;
    expect(sessionId).toMatch(/^sess_sy_/);
    expect(ledger.map((row) => row.session_id)).toEqual([sessionId, sessionId]);

    const { context, page } = await openConsolePage(browser);
    await signInWithMasterKey(page, gateway.origin, MASTER);
    await page.getByRole('navigation').getByRole('link', { name: 'Requests', exact: true }).click();
    const rows = page.getByRole('table', { name: 'Requests' }).locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    for (const text of await rows.allTextContents()) {
      expect(text).toContain(`voice · realtime ${sessionId}`);
      expect(text).toContain('openai / gpt-realtime');
    }
    expect(await rows.first().locator('td').nth(4).textContent()).toBe('200');
    await context.close();
  });
});
