import type { AdminRole } from '@switchyard/accounts';
import type { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcConfigSchema } from '../src/config/admin-config-schema.js';
import { ADMIN_ROUTE_RULES } from '../src/http/admin/admin-access-policy.js';
import type { AdminIdentity } from '../src/http/admin/admin-identity.js';
import { AdminSessions } from '../src/http/admin/admin-sessions.js';
import { createAdminSso } from '../src/http/admin/admin-sso.js';
import type { Batches } from '../src/batches/batches.js';
import { createAdminRouter } from '../src/http/admin/create-admin-router.js';
import { createRouteDeps } from '../src/http/routes/route-deps.js';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// Every admin route, walked over real HTTP with a console session of each role (cookie + CSRF token) and with the
// master key: each role gets 403 exactly where the expectations below say, a change without the CSRF token is refused,
// and no credentials get 401. The routes come from the admin router itself: a route added without an entry here and
// in ADMIN_ROUTE_RULES fails this file. (The sign-in that opens such sessions: admin-sso-browser.test.ts.)

const MASTER = 'sk-master-key-roles-test-0123456789';
type Allowed = { viewer: boolean; team_admin: boolean };
const READ: Allowed = { viewer: true, team_admin: true };
const TEAM_WRITE: Allowed = { viewer: false, team_admin: true };
const ADMIN_ONLY: Allowed = { viewer: false, team_admin: false };
const VIEWER_READ: Allowed = { viewer: true, team_admin: false };

/** Who may call each route besides `admin` (the master key and `admin` may call every one). */
const EXPECTED: Record<string, Allowed> = {
  'GET /session': READ,
  'POST /session': READ,
  'DELETE /session': READ,
  'POST /keys': TEAM_WRITE,
  'GET /keys': READ,
  'GET /keys/:id': READ,
  'PATCH /keys/:id': TEAM_WRITE,
  'POST /keys/:id/rotate': TEAM_WRITE,
  'DELETE /keys/:id': TEAM_WRITE,
  'GET /usage/export': READ,
  'GET /usage': READ,
  'POST /teams': ADMIN_ONLY,
  'GET /teams': READ,
  'GET /teams/:id': READ,
  'PATCH /teams/:id': ADMIN_ONLY,
  'DELETE /teams/:id': ADMIN_ONLY,
  'POST /organizations': ADMIN_ONLY,
  'GET /organizations': VIEWER_READ,
  'GET /organizations/:id': VIEWER_READ,
  'PATCH /organizations/:id': ADMIN_ONLY,
  'DELETE /organizations/:id': ADMIN_ONLY,
  'GET /requests': READ,
  'GET /batches': VIEWER_READ,
  'GET /audit': VIEWER_READ,
  'GET /models': READ,
  'GET /health': VIEWER_READ,
  'POST /playground/chat/completions': ADMIN_ONLY,
};
/** Routes before authentication: the sign-in itself. */
const PUBLIC = ['GET /sso', 'GET /sso/login', 'GET /sso/callback'];

/** Every `METHOD path` an Express router (and the routers mounted in it) answers. */
function routesOf(router: Router, prefix = ''): string[] {
  const found: string[] = [];
  type Layer = {
    route?: { path: string; methods: Record<string, boolean> };
    rawPath?: string;
    handle: { stack?: Layer[] };
  };
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    if (layer.route) {
      for (const method of Object.keys(layer.route.methods))
        if (method !== '_all') found.push(`${method.toUpperCase()} ${prefix}${layer.route.path}`);
    } else if (layer.handle.stack && typeof layer.rawPath === 'string') {
      found.push(
        ...routesOf(layer.handle as unknown as Router, `${prefix}${layer.rawPath === '/' ? '' : layer.rawPath}`),
      );
    }
  }
  return found;
}

let running: RunningServer;
let origin: string;
let teamA: string;
let teamB: string;
let keyA: string;
let keyB: string;
let orgA: string;
const sessions: Partial<Record<AdminRole, { cookie: string; csrf: string }>> = {};

const master = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${origin}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> };
};

/** Calls the admin API as a console session of `role`, with its CSRF token unless `csrf` is false. */
const asRole = async (role: AdminRole, method: string, path: string, body?: unknown, csrf = true) => {
  const session = sessions[role]!;
  const res = await fetch(`${origin}/admin${path}`, {
    method,
    headers: {
      cookie: `switchyard_session=${session.cookie}`,
      ...(csrf ? { 'x-csrf-token': session.csrf } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
  return { status: res.status, code: json?.error?.code, json };
};

beforeAll(async () => {
  running = await startGatewayFromYaml(`
admin:
  master_key: "${MASTER}"
  oidc:
    issuer: http://127.0.0.1:9/
    client_id: switchyard
    client_secret: not-used-in-this-test
    redirect_uri: http://127.0.0.1:9/admin/sso/callback
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "http://127.0.0.1:9/v1" }
models:
  - { id: gpt-4o, provider: openai, price: { input: 1, output: 2 } }
`);
  origin = running.url.replace(/\/v1$/, '');
  orgA = (await master('POST', '/organizations', { name: 'org a' })).json.id as string;
  teamA = (await master('POST', '/teams', { name: 'team a', organization_id: orgA })).json.id as string;
  teamB = (await master('POST', '/teams', { name: 'team b' })).json.id as string;
  keyA = (await master('POST', '/keys', { name: 'a', team_id: teamA })).json.id as string;
  keyB = (await master('POST', '/keys', { name: 'b', team_id: teamB })).json.id as string;
  const store = new AdminSessions(running.accounts!.adminSessions, 3_600_000);
  const identities: Record<AdminRole, AdminIdentity> = {
    admin: { actor: 'oidc:ada@example.com', role: 'admin', teams: [], method: 'oidc' },
    viewer: { actor: 'oidc:vic@example.com', role: 'viewer', teams: [], method: 'oidc' },
    team_admin: { actor: 'oidc:tia@example.com', role: 'team_admin', teams: [teamA], method: 'oidc' },
  };
  for (const [role, identity] of Object.entries(identities)) {
    const opened = await store.open(identity);
    sessions[role as AdminRole] = { cookie: opened.id, csrf: opened.csrfToken };
  }
}, 30_000);
afterAll(() => running?.close());

/** A request that reaches the route: the path with ids of team a's key and team, and a body it takes. */
function requestFor(route: string): { method: string; path: string; body?: unknown } {
  const [method = '', pattern = ''] = route.split(' ');
  const path = pattern
    .replace('/keys/:id', `/keys/${keyA}`)
    .replace('/teams/:id', `/teams/${teamA}`)
    .replace('/organizations/:id', `/organizations/${orgA}`);
  const bodies: Record<string, unknown> = {
    'POST /keys': { name: 'walked', team_id: teamA },
    'PATCH /keys/:id': { rpm_limit: 100 },
    'POST /keys/:id/rotate': { grace_seconds: 0 },
    'POST /teams': { name: 'walked team' },
    'PATCH /teams/:id': { rpm_limit: 100 },
    'POST /organizations': { name: 'walked org' },
    'PATCH /organizations/:id': { rpm_limit: 100 },
    'POST /playground/chat/completions': { model: 'gpt-4o', messages: [] },
  };
  return { method, path, body: bodies[route] };
}

describe('every admin route has a role check', () => {
  it('lists every route of the admin router here and in ADMIN_ROUTE_RULES', () => {
    const sso = createAdminSso(running.accounts!, {
      config: oidcConfigSchema.parse({
        issuer: 'http://127.0.0.1:9/',
        client_id: 'switchyard',
        redirect_uri: 'http://127.0.0.1:9/admin/sso/callback',
      }),
      clientSecret: undefined,
      masterKey: MASTER,
      trustProxy: [],
    });
    const router = createAdminRouter(
      running.accounts!,
      createRouteDeps(running.gateway, '1mb', running.accounts!),
      sso,
      // Only to register GET /batches for this listing; the role walk below calls the running gateway's real one.
      { active: async () => [] } as unknown as Batches,
    );
    const routes = routesOf(router).filter((r) => !PUBLIC.includes(r));
    expect(routesOf(router)).toEqual(expect.arrayContaining(PUBLIC));
    expect(routes.sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(ADMIN_ROUTE_RULES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(routes.sort());
  });

  it('gives each role 403 exactly where it may not act, and the master key and admin nothing', async () => {
    const seen: string[] = [];
    // Reads first, then changes, and the sign-out last, so every route finds what it needs.
    const order = Object.keys(EXPECTED).sort((a, b) => rank(a) - rank(b));
    for (const route of order) {
      const { method, path, body } = requestFor(route);
      for (const role of ['viewer', 'team_admin', 'admin'] as const) {
        if (route === 'DELETE /session') continue;
        const allowed = role === 'admin' || EXPECTED[route]![role];
        const answer = await asRole(role, method, path, body);
        seen.push(`${role} ${route} ${answer.status}`);
        if (allowed)
          expect([401, 403], `${role} ${route}: ${JSON.stringify(answer.json)}`).not.toContain(answer.status);
        else expect(`${answer.status} ${answer.code}`, `${role} ${route}`).toBe('403 forbidden');
      }
      const bearer = await master(method, path, body);
      expect([401, 403], `master key ${route}`).not.toContain(bearer.status);
    }
    expect(seen.length).toBe((Object.keys(EXPECTED).length - 1) * 3);
  });

  it('refuses every change made with a session but without its CSRF token; bearer requests need none', async () => {
    const changes = Object.keys(EXPECTED).filter((route) => !route.startsWith('GET '));
    for (const route of changes) {
      const { method, path, body } = requestFor(route);
      for (const role of ['viewer', 'team_admin', 'admin'] as const) {
        const answer = await asRole(role, method, path, body, false);
        expect(`${answer.status} ${answer.code}`, `${role} ${route}`).toBe('403 csrf_token_invalid');
      }
      const wrong = await fetch(`${origin}/admin${path}`, {
        method,
        headers: { cookie: `switchyard_session=${sessions.admin!.cookie}`, 'x-csrf-token': sessions.viewer!.csrf },
      });
      expect(wrong.status, route).toBe(403);
    }
    expect((await master('POST', '/keys', { name: 'bearer, no csrf' })).status).toBe(201);
  });

  it('answers 401 to every route without credentials, and to a session id that does not exist', async () => {
    for (const route of Object.keys(EXPECTED)) {
      const { method, path } = requestFor(route);
      expect((await fetch(`${origin}/admin${path}`, { method })).status, route).toBe(401);
      const unknown = await fetch(`${origin}/admin${path}`, {
        method,
        headers: { cookie: `switchyard_session=${'A'.repeat(43)}` },
      });
      expect(unknown.status, route).toBe(401);
    }
  });
});

describe('a team admin is held to its teams', () => {
  it("sees and changes only its teams' keys, teams and usage", async () => {
    const keys = await asRole('team_admin', 'GET', '/keys');
    expect((keys.json as unknown as { data: { id: string }[] }).data.map((k) => k.id)).toContain(keyA);
    expect((keys.json as unknown as { data: { team_id: string }[] }).data.every((k) => k.team_id === teamA)).toBe(true);
    const teams = await asRole('team_admin', 'GET', '/teams');
    expect((teams.json as unknown as { data: { id: string }[] }).data.map((t) => t.id)).toEqual([teamA]);
    for (const [method, path] of [
      ['GET', `/keys/${keyB}`],
      ['PATCH', `/keys/${keyB}`],
      ['POST', `/keys/${keyB}/rotate`],
      ['DELETE', `/keys/${keyB}`],
    ] as const)
      expect(`${(await asRole('team_admin', method, path, method === 'PATCH' ? {} : undefined)).code}`).toBe(
        'key_not_found',
      );
    expect((await asRole('team_admin', 'GET', `/teams/${teamB}`)).code).toBe('team_not_found');
    expect((await asRole('team_admin', 'POST', '/keys', { name: 'x', team_id: teamB })).status).toBe(403);
    expect((await asRole('team_admin', 'POST', '/keys', { name: 'x' })).status).toBe(403);
    expect((await asRole('team_admin', 'PATCH', `/keys/${keyA}`, { team_id: teamB })).status).toBe(403);
    expect((await asRole('team_admin', 'GET', `/usage?team=${teamB}`)).status).toBe(403);
    expect((await asRole('team_admin', 'GET', `/requests?team=${teamB}`)).status).toBe(403);
    expect((await asRole('team_admin', 'GET', `/usage/export?team=${teamB}`)).status).toBe(403);
    expect((await asRole('team_admin', 'GET', '/usage?group_by=team')).status).toBe(200);
    expect((await master('GET', `/keys/${keyB}`)).json.revoked_at).toBeNull();
  });
});

describe('sign-out', () => {
  it('ends the session on the gateway: the same cookie then gets 401', async () => {
    expect((await asRole('viewer', 'GET', '/session')).json).toMatchObject({ role: 'viewer', method: 'oidc' });
    expect((await asRole('viewer', 'DELETE', '/session')).status).toBe(204);
    expect((await asRole('viewer', 'GET', '/session')).code).toBe('session_expired');
    const audit = await master('GET', '/audit?action=sign_out');
    expect((audit.json.data as { actor: string }[]).map((e) => e.actor)).toEqual(['oidc:vic@example.com']);
  });
});

function rank(route: string): number {
  if (route === 'DELETE /session') return 3;
  if (route.startsWith('DELETE')) return 2;
  return route.startsWith('GET') ? 0 : 1;
}
