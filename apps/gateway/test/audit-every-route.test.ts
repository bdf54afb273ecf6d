import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { ADMIN_ROUTE_RULES } from '../src/http/admin/admin-access-policy.js';
import { type RunningServer, startServer } from '../src/start-server.js';

// Issue #36: every admin change is recorded in the audit log. This walks every state-changing route of the admin
// router (from ADMIN_ROUTE_RULES, which admin-roles.test.ts checks against the router itself) and asserts that one
// call of it adds the audit row it should, so a state-changing route added later without an audit row fails here.
const MASTER = 'sk-master-key-audit-walk-0123456789';

/** Routes that change nothing the audit log records, and why. */
const NOT_ADMIN_CHANGES: Record<string, string> = {
  'POST /playground/chat/completions': 'a model call, booked in the usage ledger like any call',
  'DELETE /session': 'ends a single sign-on cookie session only (sign_out rows: admin-sso-browser.test.ts)',
};

let upstream: MockUpstream;
let g: RunningServer;
const ids: Record<string, string> = {};

async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${g.url.replace(/\/v1$/, '')}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${MASTER}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** One call of each state-changing route, in an order that leaves each one something to act on, and its audit action. */
const CASES: { route: string; action: string; call: () => Promise<{ status: number; target: string }> }[] = [
  {
    route: 'POST /session',
    action: 'sign_in',
    call: async () => ({ ...(await admin('POST', '/session')), target: '' }),
  },
  ...(['organization', 'team'] as const).flatMap((kind) => {
    const path = kind === 'team' ? '/teams' : '/organizations';
    return [
      {
        route: `POST ${path}`,
        action: `${kind}.create`,
        call: async () => {
          const res = await admin('POST', path, { name: `audited ${kind}`, rpm_limit: 10 });
          ids[kind] = res.body.id as string;
          return { status: res.status, target: ids[kind] };
        },
      },
      {
        route: `PATCH ${path}/:id`,
        action: `${kind}.update`,
        call: async () => ({
          status: (await admin('PATCH', `${path}/${ids[kind]}`, { rpm_limit: 20 })).status,
          target: ids[kind]!,
        }),
      },
    ];
  }),
  {
    route: 'POST /keys',
    action: 'key.create',
    call: async () => {
      const res = await admin('POST', '/keys', { name: 'audited key', team_id: ids.team });
      ids.key = res.body.id as string;
      return { status: res.status, target: ids.key };
    },
  },
  {
    route: 'PATCH /keys/:id',
    action: 'key.update',
    call: async () => ({
      status: (await admin('PATCH', `/keys/${ids.key}`, { rpm_limit: 5 })).status,
      target: ids.key!,
    }),
  },
  {
    route: 'POST /keys/:id/rotate',
    action: 'key.rotate',
    call: async () => ({
      status: (await admin('POST', `/keys/${ids.key}/rotate`, { grace_seconds: 0 })).status,
      target: ids.key!,
    }),
  },
  {
    route: 'DELETE /keys/:id',
    action: 'key.revoke',
    call: async () => ({ status: (await admin('DELETE', `/keys/${ids.key}`)).status, target: ids.key! }),
  },
  {
    route: 'DELETE /teams/:id',
    action: 'team.delete',
    call: async () => ({ status: (await admin('DELETE', `/teams/${ids.team}`)).status, target: ids.team! }),
  },
  {
    route: 'DELETE /organizations/:id',
    action: 'organization.delete',
    call: async () => ({
      status: (await admin('DELETE', `/organizations/${ids.organization}`)).status,
      target: ids.organization!,
    }),
  },
];

beforeAll(async () => {
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
  const yaml = `
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { host: 127.0.0.1, port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai }
`;
  g = await startServer(parseConfig(yaml, 'test.yaml', {}), { logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await g?.close();
  await upstream?.close();
});

describe('the audit log covers every admin change', () => {
  it('has a case for every state-changing admin route, or a reason it changes nothing audited', () => {
    const changing = ADMIN_ROUTE_RULES.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    const covered = [...CASES.map((c) => c.route), ...Object.keys(NOT_ADMIN_CHANGES)];
    expect(covered.sort()).toEqual(changing.sort());
  });

  it("adds the route's audit row, with actor and target, for each call", async () => {
    for (const { route, action, call } of CASES) {
      const before = await admin('GET', `/audit?action=${action}&limit=1000`);
      const { status, target } = await call();
      expect({ route, ok: status < 300 }).toEqual({ route, ok: true });
      const after = (await admin('GET', `/audit?action=${action}&limit=1000`)).body.data as {
        actor: string;
        target: string | null;
      }[];
      expect({ route, added: after.length - (before.body.data as unknown[]).length }).toEqual({ route, added: 1 });
      expect(after[0]).toMatchObject({ actor: 'master_key', ...(target && { target }) });
    }
  });
});
