import { freePort } from '@switchyard/testkit/servers';
import { generateKeyPair } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAGES, launchChromium, openConsolePage } from './helpers/console-page.js';
import type { RunningServer } from '../src/start-server.js';
import {
  adminOidcYaml,
  idTokenClaims,
  signIdToken,
  startOidcProvider,
  type TestOidcProvider,
  type TestUser,
} from './helpers/oidc-test-provider.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// Single sign-on for the console against a real OpenID provider (the certified `oidc-provider`, run in this process)
// driven in Chromium: each role signs in through the provider's own login and consent pages and sees and does what its
// role allows; a forged or expired ID token, a wrong state, a missing PKCE verifier, a user without a role and a
// CSRF-less change are refused, and every sign-in, failed sign-in and sign-out is in the audit log.

const MASTER = 'sk-master-key-sso-browser-0123456789';
const users: Record<string, TestUser> = {
  ada: { email: 'ada@example.com', switchyard_role: 'admin' },
  vic: { email: 'vic@example.com' }, // a viewer through role_mapping
  tia: { email: 'tia@example.com', switchyard_role: ['staff', 'team_admin'] },
  nora: { email: 'nora@example.com', switchyard_role: 'staff' },
  tom: { email: 'tom@example.com', switchyard_role: 'team_admin' }, // a team admin of two teams
};

let provider: TestOidcProvider;
let running: RunningServer;
let origin: string;
let browser: Browser;
let teamA: string;
let teamB: string;
let keyA: string;
let keyB: string;

const master = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${origin}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown> & { data: Record<string, unknown>[] };
};
const auditOf = async (action: string) => (await master('GET', `/audit?action=${action}`)).data;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider(`${origin}/admin/sso/callback`, users);
  running = await startGatewayFromYaml(`
${adminOidcYaml(provider, MASTER, `${origin}/admin/sso/callback`, 'role_mapping: { "vic@example.com": viewer }')}
store: { sqlite: ":memory:" }
server: { host: 127.0.0.1, port: ${port}, trust_proxy: ["127.0.0.1"] }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "http://127.0.0.1:9/v1" }
models:
  - { id: gpt-4o, provider: openai }
`);
  teamA = (await master('POST', '/teams', { name: 'team a' })).id as string;
  teamB = (await master('POST', '/teams', { name: 'team b' })).id as string;
  users.tia!.switchyard_teams = [teamA];
  users.tom!.switchyard_teams = [teamA, teamB];
  keyA = (await master('POST', '/keys', { name: 'key-of-team-a', team_id: teamA })).id as string;
  keyB = (await master('POST', '/keys', { name: 'key-of-team-b', team_id: teamB })).id as string;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await running?.close();
  await provider?.close();
});

/** A fresh browser (no cookies) on the console's sign-in page, clicking "Sign in with single sign-on". */
async function startSignIn(): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await openConsolePage(browser);
  await page.goto(`${origin}/ui/`);
  await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  return { context, page };
}

/** Signs in at the provider's own pages (any password) and consents; the browser then goes back to the gateway. */
async function atProvider(page: Page, user: string): Promise<void> {
  await page.locator('input[name=login]').fill(user);
  await page.locator('input[name=password]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Signs `user` in, all the way to the console's navigation. */
async function signIn(user: string) {
  const { context, page } = await startSignIn();
  await atProvider(page, user);
  await page.getByRole('navigation').waitFor();
  return { context, page };
}

/** The callback URL the provider sends the browser to, held back at the provider so a test can change it. */
async function heldCallback(user: string): Promise<{ context: BrowserContext; page: Page; callback: URL }> {
  const { context, page } = await startSignIn();
  const held = provider.holdNextCallback();
  await atProvider(page, user);
  return { context, page, callback: await held };
}

const navLabels = (page: Page) => page.getByRole('navigation').getByRole('link').allTextContents();
const keyNames = async (page: Page) => {
  await page.locator('td.key-name').first().waitFor();
  return (await page.locator('td.key-name').allTextContents()).sort();
};
/** `fetch` from the console's page, as its own script would (same origin, the session cookie sent). */
const pageFetch = (page: Page, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  page.evaluate(
    async ([m, p, h, b]) => {
      const res = await fetch(p as string, {
        method: m as string,
        headers: { 'content-type': 'application/json', ...(h as Record<string, string>) },
        body: b === undefined ? undefined : JSON.stringify(b),
        credentials: 'same-origin',
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as { error?: { code?: string } } | null };
    },
    [method, path, headers, body] as const,
  );
const csrfOf = async (page: Page) =>
  ((await pageFetch(page, 'GET', '/admin/session')).body as unknown as { csrf_token: string }).csrf_token;

describe('console single sign-on in Chromium against oidc-provider', { timeout: 90_000 }, () => {
  it('signs an admin in: every page, every key, an HTTP-only SameSite=Strict cookie, and a sign_in audit row', async () => {
    const { context, page } = await signIn('ada');
    expect(await navLabels(page)).toEqual([...ADMIN_PAGES]);
    await expect.poll(() => page.locator('.who').textContent()).toBe('ada@example.com (admin)');
    expect(await keyNames(page)).toEqual(['key-of-team-a', 'key-of-team-b']);
    const cookie = (await context.cookies()).find((c) => c.name === 'switchyard_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin', secure: false });
    expect(await page.evaluate('document.cookie')).toBe(''); // HttpOnly: no script reads it
    expect(await page.evaluate(() => Object.keys(sessionStorage).length)).toBe(0);
    const csrf = await csrfOf(page);
    const created = await pageFetch(page, 'POST', '/admin/keys', { 'x-csrf-token': csrf }, { name: 'made-by-ada' });
    expect(created.status).toBe(201);
    const [signedIn] = await auditOf('sign_in');
    expect(signedIn).toMatchObject({
      actor: 'oidc:ada@example.com',
      source_address: '127.0.0.1',
      after: { method: 'oidc', role: 'admin', issuer: provider.issuer, subject: 'ada' },
    });
    const [made] = await auditOf('key.create');
    expect(made).toMatchObject({ actor: 'oidc:ada@example.com' });
    await context.close();
  });

  it('signs a viewer in (role_mapping by email): reads everything, changes nothing', async () => {
    const { context, page } = await signIn('vic');
    expect(await navLabels(page)).toEqual(ADMIN_PAGES.filter((p) => p !== 'Playground'));
    expect((await keyNames(page)).length).toBeGreaterThanOrEqual(2);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    await page.getByRole('navigation').getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit' }).waitFor();
    const csrf = await csrfOf(page);
    const revoke = await pageFetch(page, 'DELETE', `/admin/keys/${keyA}`, { 'x-csrf-token': csrf });
    expect(`${revoke.status} ${revoke.body?.error?.code}`).toBe('403 forbidden');
    await context.close();
  });

  it("signs a team admin in: its team's keys only, and keys it creates join its team", async () => {
    const { context, page } = await signIn('tia');
    expect(await navLabels(page)).toEqual(['Keys', 'Teams', 'Usage', 'Requests']);
    expect(await keyNames(page)).toEqual(['key-of-team-a']);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('made-by-tia');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => keyNames(page)).toEqual(['key-of-team-a', 'made-by-tia']);
    const mine = (await master('GET', '/keys')).data.find((k) => k.name === 'made-by-tia');
    expect(mine?.team_id).toBe(teamA);
    const csrf = await csrfOf(page);
    const other = await pageFetch(page, 'DELETE', `/admin/keys/${keyB}`, { 'x-csrf-token': csrf });
    expect(`${other.status} ${other.body?.error?.code}`).toBe('404 key_not_found');
    expect((await pageFetch(page, 'GET', '/admin/audit')).status).toBe(403);
    await page.getByRole('navigation').getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('lets a team admin of two teams pick one: usage and requests are asked for it, without an error', async () => {
    const { context, page } = await signIn('tom');
    const team = page.getByRole('combobox', { name: 'Team' });
    expect(await team.locator('option').allTextContents()).toEqual([teamA, teamB]);
    const askedFor = (id: string) =>
      page.waitForRequest((r) => r.url().includes('/admin/usage') && new URL(r.url()).searchParams.get('team') === id);
    const firstTeam = askedFor(teamA);
    await page.getByRole('navigation').getByRole('link', { name: 'Usage' }).click();
    await firstTeam;
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    const secondTeam = askedFor(teamB);
    await team.selectOption(teamB);
    await secondTeam;
    await page.getByTestId('total-requests').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('navigation').getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('table', { name: 'Requests' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('refuses a change without the CSRF token, and signs out: the old cookie then gets 401', async () => {
    const { context, page } = await signIn('ada');
    const noToken = await pageFetch(page, 'POST', '/admin/keys', {}, { name: 'no-csrf' });
    expect(`${noToken.status} ${noToken.body?.error?.code}`).toBe('403 csrf_token_invalid');
    const session = (await context.cookies()).find((c) => c.name === 'switchyard_session')!.value;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).waitFor();
    expect((await context.cookies()).some((c) => c.name === 'switchyard_session')).toBe(false);
    const replayed = await fetch(`${origin}/admin/keys`, { headers: { cookie: `switchyard_session=${session}` } });
    expect(replayed.status).toBe(401);
    expect((await auditOf('sign_out'))[0]).toMatchObject({ actor: 'oidc:ada@example.com' });
    await context.close();
  });

  it('refuses a user the provider knows but who has no role', async () => {
    const { context, page } = await startSignIn();
    const answer = page.waitForResponse((res) => res.url().startsWith(`${origin}/admin/sso/callback`));
    await atProvider(page, 'nora');
    expect((await answer).status()).toBe(403);
    expect((await context.cookies()).some((c) => c.name === 'switchyard_session')).toBe(false);
    expect((await auditOf('sign_in.failed'))[0]).toMatchObject({
      actor: 'oidc:nora@example.com',
      after: { method: 'oidc', reason: expect.stringContaining('no role') },
    });
    await context.close();
  });

  it('refuses a callback whose state was changed', async () => {
    const { context, page, callback } = await heldCallback('ada');
    callback.searchParams.set('state', 'not-the-state-we-sent');
    const answer = await page.goto(callback.href);
    expect(answer?.status()).toBe(400);
    expect(await answer?.text()).toContain('state');
    expect((await context.cookies()).some((c) => c.name === 'switchyard_session')).toBe(false);
    expect((await auditOf('sign_in.failed'))[0]?.after).toMatchObject({ reason: expect.stringContaining('state') });
    await context.close();
  });

  it('refuses a callback without the PKCE verifier, and the provider will not redeem the code without it', async () => {
    const { context, page, callback } = await heldCallback('ada');
    await context.clearCookies({ name: 'switchyard_login' });
    const answer = await page.goto(callback.href);
    expect(answer?.status()).toBe(400);
    expect(await answer?.text()).toContain('sign_in_expired');
    const redeemed = await fetch(`${provider.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: `${origin}/admin/sso/callback`,
      }),
    });
    expect(redeemed.status).toBe(400);
    expect(((await redeemed.json()) as { id_token?: string }).id_token).toBeUndefined();
    expect((await auditOf('sign_in.failed'))[0]?.after).toMatchObject({ reason: expect.stringContaining('PKCE') });
    await context.close();
  });

  it('refuses an ID token signed with another key, and an expired one signed with the right key', async () => {
    const { privateKey: attacker } = await generateKeyPair('RS256');
    const cases = [
      { name: 'forged', sign: (claims: Record<string, unknown>) => signIdToken(claims, attacker) },
      {
        name: 'expired',
        sign: (claims: Record<string, unknown>) => {
          const now = Math.floor(Date.now() / 1000);
          return signIdToken({ ...claims, iat: now - 7_200, exp: now - 3_600 }, provider.privateKey);
        },
      },
    ];
    for (const { name, sign } of cases) {
      provider.replaceNextIdToken((idToken) => sign(idTokenClaims(idToken)));
      const { context, page } = await startSignIn();
      const answer = page.waitForResponse((res) => res.url().startsWith(`${origin}/admin/sso/callback`));
      await atProvider(page, 'ada');
      expect((await answer).status(), name).toBe(400);
      expect(
        (await context.cookies()).some((c) => c.name === 'switchyard_session'),
        name,
      ).toBe(false);
      const [failed] = await auditOf('sign_in.failed');
      expect(JSON.stringify(failed), name).not.toMatch(/eyJ/); // no token in the audit log
      await context.close();
    }
    const reasons = (await auditOf('sign_in.failed'))
      .slice(0, 2)
      .map((e) => String((e.after as { reason?: unknown } | null)?.reason));
    expect(reasons[1]).toMatch(/signature/i);
    expect(reasons[0]).toMatch(/exp/i);
  });

  it('marks the cookies Secure behind a trusted TLS proxy (x-forwarded-proto: https)', async () => {
    const plain = await fetch(`${origin}/admin/sso/login`, { redirect: 'manual' });
    expect(plain.status).toBe(302);
    expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/);
    const proxied = await fetch(`${origin}/admin/sso/login`, {
      redirect: 'manual',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(proxied.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    expect(new URL(proxied.headers.get('location')!).searchParams.get('code_challenge_method')).toBe('S256');
  });
});
