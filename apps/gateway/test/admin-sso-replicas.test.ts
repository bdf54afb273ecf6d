import { freePort, startPostgres, type TestPostgres } from '@switchyard/testkit/servers';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { launchChromium, openConsolePage } from './helpers/console-page.js';
import { adminOidcYaml, startOidcProvider, type TestOidcProvider } from './helpers/oidc-test-provider.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// Console sessions across two gateway replicas sharing one Postgres: a sign-in started on replica A (its sealed login
// cookie) finishes on replica B (the provider's redirect URI), the session then works on A, a change made on A with
// its CSRF token is in the audit log B reads, and a sign-out on B ends the session on A at once. Driven in Chromium against
// oidc-provider (cookies are per host, not per port, so both replicas on 127.0.0.1 see the same cookies).

const MASTER = 'sk-master-key-sso-replicas-0123456789';

let postgres: TestPostgres;
let provider: TestOidcProvider;
let replicaA: RunningServer;
let replicaB: RunningServer;
let browser: Browser;
const originOf = (running: RunningServer) => running.url.replace(/\/v1$/, '');

beforeAll(async () => {
  postgres = await startPostgres();
  const database = await postgres.createDatabase('sso_replicas');
  const [portA, portB] = [await freePort(), await freePort()];
  const callback = `http://127.0.0.1:${portB}/admin/sso/callback`;
  provider = await startOidcProvider(callback, { ada: { email: 'ada@example.com', switchyard_role: 'admin' } });
  const replica = (port: number) =>
    startGatewayFromYaml(`
${adminOidcYaml(provider, MASTER, callback)}
store: { postgres: "${database}" }
server: { host: 127.0.0.1, port: ${port} }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "http://127.0.0.1:9/v1" }
models:
  - { id: gpt-4o, provider: openai }
`);
  replicaA = await replica(portA);
  replicaB = await replica(portB);
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await replicaA?.close();
  await replicaB?.close();
  await provider?.close();
  await postgres?.close();
});

describe('console sessions on two replicas sharing Postgres', { timeout: 90_000 }, () => {
  it('starts on A, finishes on B, works on A, and a sign-out on B ends it on A', async () => {
    const [a, b] = [originOf(replicaA), originOf(replicaB)];
    const { context, page } = await openConsolePage(browser);
    await page.goto(`${a}/admin/sso/login`); // replica A seals the state, nonce and PKCE verifier
    await page.locator('input[name=login]').fill('ada');
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    const landed = page.waitForURL(`${b}/ui/`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await landed; // replica B opened the session
    const session = (await context.cookies()).find((c) => c.name === 'switchyard_session')!.value;
    const on = (origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
      fetch(`${origin}/admin${path}`, {
        method,
        headers: { cookie: `switchyard_session=${session}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const onA = (await (await on(a, 'GET', '/session')).json()) as { role: string; csrf_token: string };
    expect(onA.role).toBe('admin');
    const created = await on(a, 'POST', '/keys', { 'x-csrf-token': onA.csrf_token }, { name: 'made-on-a' });
    expect(created.status).toBe(201);
    // B reads the audit log from the shared store (keys reach other replicas' memory through redis:, not set here).
    const auditOnB = (await (await on(b, 'GET', '/audit?action=key.create')).json()) as { data: { actor: string }[] };
    expect(auditOnB.data.map((e) => e.actor)).toEqual(['oidc:ada@example.com']);
    expect((await on(b, 'DELETE', '/session', { 'x-csrf-token': onA.csrf_token })).status).toBe(204);
    expect((await on(a, 'GET', '/keys')).status).toBe(401);
    await context.close();
  });
});
