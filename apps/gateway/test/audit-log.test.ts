import { createHash } from 'node:crypto';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import { startPostgres, type TestPostgres } from '@switchyard/testkit/servers';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { type RunningServer, startServer } from '../src/start-server.js';

// The audit log (issue #36): every admin change and failed sign-in is stored with actor, action, target, time, source
// address and before/after values (never a secret), and listed by `GET /admin/audit` with filters and pages.
const MASTER = 'sk-master-key-for-audit-0123456789';
const STATIC = 'sk-static-key-for-audit-0123456789';

let upstream: MockUpstream;
let postgres: TestPostgres;
const started: RunningServer[] = [];

async function gateway(store: string): Promise<RunningServer> {
  const yaml = `
keys: ["${STATIC}"]
admin: { master_key: "${MASTER}" }
store: ${store}
server: { host: 127.0.0.1, port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai, price: { input: 2, output: 8 } }
`;
  const running = await startServer(parseConfig(yaml, 'test.yaml', {}), { logger: pino({ level: 'silent' }) });
  started.push(running);
  return running;
}

type Entry = {
  id: string;
  created_at: string;
  actor: string;
  action: string;
  target: string | null;
  source_address: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};
type AuditPage = { object: 'list'; data: Entry[]; has_more: boolean; next_before: string | null };

async function admin(g: RunningServer, method: string, path: string, body?: unknown, bearer = MASTER) {
  const res = await fetch(`${g.url.replace(/\/v1$/, '')}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { error?: { message: string; param?: string } },
  };
}
const audit = async (g: RunningServer, query = '') =>
  (await admin(g, 'GET', `/audit${query}`)).body as unknown as AuditPage;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Creates, changes, rotates and revokes a key; returns its id and every secret it had. */
async function keyLifecycle(g: RunningServer) {
  const created = (await admin(g, 'POST', '/keys', { name: 'audited', rpm_limit: 10 })).body;
  await admin(g, 'PATCH', `/keys/${created.id}`, { rpm_limit: 20, budget_usd: 5, budget_period: 'month' });
  const rotated = (await admin(g, 'POST', `/keys/${created.id}/rotate`, { grace_seconds: 60 })).body;
  await admin(g, 'DELETE', `/keys/${created.id}`);
  return { id: created.id as string, secrets: [created.key as string, rotated.key as string] };
}

beforeAll(async () => {
  [upstream, postgres] = await Promise.all([startMockUpstream({ routes: openaiReplayRoutes() }), startPostgres()]);
});
afterAll(async () => {
  for (const g of started) await g.close();
  await Promise.all([upstream?.close(), postgres?.close()]);
});

describe('GET /admin/audit on SQLite', () => {
  let g: RunningServer;
  beforeAll(async () => {
    g = await gateway('{ sqlite: ":memory:" }');
  });

  it('records key create, PATCH (limits, budget), rotate and revoke with actor, source, before and after, never a secret', async () => {
    const startedAt = Date.now();
    const { id, secrets } = await keyLifecycle(g);
    const page = await audit(g, `?target=${id}`);
    expect(page.data.map((e) => e.action)).toEqual(['key.revoke', 'key.rotate', 'key.update', 'key.create']);
    for (const entry of page.data) {
      expect(entry).toMatchObject({
        actor: 'master_key',
        target: id,
        source_address: expect.stringMatching(/127\.0\.0\.1$/),
        id: expect.stringMatching(/^aud_[0-9a-f]{32}$/),
      });
      expect(Date.parse(entry.created_at)).toBeGreaterThanOrEqual(startedAt - 1000);
    }
    const [revoke, rotate, update, create] = page.data as [Entry, Entry, Entry, Entry];
    expect(create.before).toBeNull();
    expect(create.after).toMatchObject({ id, name: 'audited', rpm_limit: 10, budget_usd: null });
    expect(update.before).toMatchObject({ rpm_limit: 10, budget_usd: null, budget_period: 'total' });
    expect(update.after).toMatchObject({ rpm_limit: 20, budget_usd: 5, budget_period: 'month' });
    expect(rotate.before).toMatchObject({ key_prefix: `${secrets[0]!.slice(0, 10)}…`, previous_key_prefix: null });
    expect(rotate.after).toMatchObject({
      key_prefix: `${secrets[1]!.slice(0, 10)}…`,
      previous_key_prefix: `${secrets[0]!.slice(0, 10)}…`,
      grace_seconds: 60,
    });
    expect(revoke.before).toMatchObject({ revoked_at: null });
    expect(revoke.after).toMatchObject({ revoked_at: expect.any(String) });
    const text = JSON.stringify(await audit(g, '?limit=1000'));
    for (const secret of [...secrets, MASTER]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(sha256(secret));
    }
  });

  it('records team create, PATCH (limits, budget) and delete with before and after', async () => {
    const team = (await admin(g, 'POST', '/teams', { name: 'platform', rpm_limit: 100 })).body as { id: string };
    expect((await admin(g, 'PATCH', `/teams/${team.id}`, { rpm_limit: 200, budget_usd: 50 })).status).toBe(200);
    expect((await admin(g, 'DELETE', `/teams/${team.id}`)).status).toBe(200);
    const page = await audit(g, `?target=${team.id}`);
    expect(page.data.map((e) => [e.actor, e.action])).toEqual([
      ['master_key', 'team.delete'],
      ['master_key', 'team.update'],
      ['master_key', 'team.create'],
    ]);
    const [deleted, update, create] = page.data as [Entry, Entry, Entry];
    expect(create.after).toMatchObject({ name: 'platform', rpm_limit: 100 });
    expect(update.before).toMatchObject({ rpm_limit: 100 });
    expect(update.after).toMatchObject({ rpm_limit: 200, budget_usd: 50 });
    expect(deleted.before).toMatchObject({ name: 'platform' });
    expect(deleted.after).toBeNull();
  });

  it('records failed sign-ins: a wrong key (401), no key, and a valid key that is not the master key (403)', async () => {
    expect((await admin(g, 'GET', '/keys', undefined, 'sk-wrong-master-key-000000000')).status).toBe(401);
    expect((await fetch(`${g.url.replace(/\/v1$/, '')}/admin/keys`)).status).toBe(401);
    expect((await admin(g, 'GET', '/keys', undefined, STATIC)).status).toBe(403);
    const { id, key } = (await admin(g, 'POST', '/keys', { name: 'not-admin' })).body as { id: string; key: string };
    expect((await admin(g, 'PATCH', `/keys/${id}`, { rpm_limit: 1 }, key)).status).toBe(403);
    const failed = (await audit(g, '?action=sign_in.failed')).data;
    expect(failed.map((e) => [e.actor, e.after?.reason])).toEqual([
      [id, 'not the master key'],
      ['static', 'not the master key'],
      ['unknown', 'no credentials'],
      ['unknown', 'invalid credentials'],
    ]);
    expect(JSON.stringify(failed)).not.toContain('sk-wrong-master-key');
    expect(JSON.stringify(failed)).not.toContain(key);
    expect((await admin(g, 'GET', `/keys/${id}`)).body.rpm_limit).toBeNull();
  });

  it('filters by actor, target, action and time, and pages with next_before without skipping or repeating', async () => {
    const before = (await audit(g, '?limit=1000')).data;
    const { id } = await keyLifecycle(g);
    const all = (await audit(g, '?limit=1000')).data;
    expect(all).toHaveLength(before.length + 4);
    expect((await audit(g, '?actor=master_key&limit=1000')).data.every((e) => e.actor === 'master_key')).toBe(true);
    expect((await audit(g, `?target=${id}&action=key.update`)).data).toHaveLength(1);
    const since = (all[3] as Entry).created_at; // the newest lifecycle's create
    expect((await audit(g, `?target=${id}&from=${encodeURIComponent(since)}`)).data).toHaveLength(4);
    expect((await audit(g, `?target=${id}&to=${Date.parse(since)}`)).data).toHaveLength(0);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditPage = await audit(g, `?limit=3${cursor ? `&before=${cursor}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_before;
      expect(page.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));
  });

  it('answers 400 naming a bad parameter, and is read by the master key only', async () => {
    for (const [query, param] of [
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?from=yesterday', 'from'],
      ['?to=soon', 'to'],
      ['?before=not-a-cursor', 'before'],
    ] as const) {
      const res = await admin(g, 'GET', `/audit${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error?.param).toBe(param);
    }
    expect((await admin(g, 'GET', '/audit', undefined, STATIC)).status).toBe(403);
  });

  it('keeps failed sign-ins bounded: 100 at once write at most 60 entries a minute', async () => {
    const count = async () => (await audit(g, '?action=sign_in.failed&limit=1000')).data.length;
    const start = await count();
    await Promise.all(
      Array.from({ length: 100 }, () => admin(g, 'GET', '/keys', undefined, 'sk-flood-000000000000000000')),
    );
    expect(await count()).toBeLessThanOrEqual(60);
    expect(await count()).toBeGreaterThan(start);
  });
});

describe('GET /admin/audit on Postgres, as a role with only INSERT and SELECT on switchyard_audit', () => {
  it('records and lists the key lifecycle; the role can neither change nor delete an entry', async () => {
    const owner = await postgres.createDatabase('audit_gateway');
    const g0 = await gateway(`{ postgres: "${owner}" }`); // the owner migrates
    await g0.close();
    started.splice(started.indexOf(g0), 1);
    const role = `audit_gateway_${process.pid}`;
    const client = new pg.Client({ connectionString: owner });
    await client.connect();
    await client.query(`CREATE ROLE ${role} LOGIN PASSWORD 'gateway-password';
      GRANT USAGE ON SCHEMA public TO ${role};
      GRANT SELECT ON switchyard_migrations TO ${role};
      DO $$ DECLARE t text; BEGIN
        FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('switchyard_audit', 'switchyard_migrations') LOOP
          EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ${role}', t);
        END LOOP;
      END $$;
      GRANT INSERT, SELECT ON switchyard_audit TO ${role};`);
    const url = new URL(owner);
    url.username = role;
    url.password = 'gateway-password';
    const g = await gateway(`{ postgres: "${url}" }`);
    const { id, secrets } = await keyLifecycle(g);
    const page = await audit(g, `?target=${id}`);
    expect(page.data.map((e) => [e.actor, e.action])).toEqual([
      ['master_key', 'key.revoke'],
      ['master_key', 'key.rotate'],
      ['master_key', 'key.update'],
      ['master_key', 'key.create'],
    ]);
    for (const secret of secrets) expect(JSON.stringify(page)).not.toContain(secret);
    const asRole = new pg.Client({ connectionString: url.toString() });
    await asRole.connect();
    await expect(asRole.query('DELETE FROM switchyard_audit')).rejects.toThrow(/permission denied/);
    await expect(asRole.query("UPDATE switchyard_audit SET actor = 'x'")).rejects.toThrow(/permission denied/);
    await asRole.end();
    await expect(client.query('DELETE FROM switchyard_audit')).rejects.toThrow(/append-only/);
    await client.end();
  });
});
