import {
  type MockRealtimeUpstream,
  type TlsTerminator,
  startMockRealtimeUpstream,
  startTlsTerminator,
} from '@switchyard/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { launchChromium, openConsolePage, signInWithMasterKey } from './helpers/console-page.js';
import { openSdkSession } from './helpers/realtime-clients.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

/**
 * The console's Requests page in a real browser (Debian's Chromium, as console-browser.test.ts) after a realtime
 * session of two responses made with the official openai SDK: one row per response, each naming the session.
 */
const MASTER = 'sk-master-console-realtime-0123456789';
const KEY = 'sk-static-console-realtime-0123456789';

let upstream: MockRealtimeUpstream;
let running: RunningServer;
let tls: TlsTerminator;
let browser: Browser;

beforeAll(async () => {
  upstream = await startMockRealtimeUpstream();
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000000000, base_url: "${upstream.baseURL}" }
models:
  - { id: voice, provider: openai, upstream: gpt-realtime, price: { input: 4, output: 16, audio_input: 32, audio_output: 64 } }
`);
  tls = await startTlsTerminator(running.port);
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await running?.close();
  await tls?.close();
  await upstream?.close();
});

describe('console Requests page with realtime sessions', { timeout: 60_000 }, () => {
  it('shows each response of a realtime session as a row naming the session', async () => {
    const session = openSdkSession(tls, KEY, 'voice');
    await session.next('session.created');
    for (const [index, text] of ['Hello', 'Again'].entries()) {
      session.send({
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
      });
      session.send({ type: 'response.create' });
      await session.next(
        'response.done',
        (e) => session.events.filter((x) => x.type === 'response.done').indexOf(e) === index,
      );
    }
    session.rt.close();
    await session.closed;
    await expect.poll(async () => (await running.accounts!.requests({ limit: 10 })).length).toBe(2);
    const ledger = await running.accounts!.requests({ limit: 10 });
    const sessionId = ledger[0]!.session_id!;
    expect(sessionId).toMatch(/^sess_sy_/);
    expect(ledger.map((row) => row.session_id)).toEqual([sessionId, sessionId]);

    const { context, page } = await openConsolePage(browser);
    await signInWithMasterKey(page, running.url.replace(/\/v1$/, ''), MASTER);
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
