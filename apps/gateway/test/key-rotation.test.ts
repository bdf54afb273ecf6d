import {
  type MockUpstream,
  openaiReplayRoutes,
  startMockUpstream,
  startRedis,
  type TestRedis,
} from '@switchyard/testkit';
import { startPostgres, type TestPostgres } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { type RunningServer, startServer } from '../src/start-server.js';

// Key rotation (issue #36): `POST /admin/keys/{id}/rotate` gives a key a new secret; the old one stays valid for
// `grace_seconds`. One gateway on SQLite, then two replicas sharing Postgres (keys) and Redis (the key change feed).
const MASTER = 'sk-master-key-for-rotation-0123456789';

let upstream: MockUpstream;
let postgres: TestPostgres;
let redis: TestRedis;
const started: RunningServer[] = [];

async function gateway(store: string, extra = ''): Promise<RunningServer> {
  const yaml = `
admin: { master_key: "${MASTER}" }
store: ${store}
${extra}
server: { host: 127.0.0.1, port: 0 }
log: { level: warn }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai, price: { input: 2, output: 8 } }
routing: { max_retries: 0 }
`;
  const running = await startServer(parseConfig(yaml, 'test.yaml', {}), { logger: pino({ level: 'silent' }) });
  started.push(running);
  return running;
}

const origin = (g: RunningServer) => g.url.replace(/\/v1$/, '');

async function admin(
  g: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${origin(g)}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${MASTER}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      error?: { code?: string; message?: string; param?: string };
    },
  };
}

/** The HTTP status a chat call with `secret` gets from `g` (200 or the SDK error's status). */
const chat = (g: RunningServer, secret: string) =>
  new OpenAI({ baseURL: g.url, apiKey: secret, maxRetries: 0 }).chat.completions
    .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
    .then(
      () => 200,
      (error: InstanceType<typeof OpenAI.APIError>) => error.status,
    );

beforeAll(async () => {
  [upstream, postgres, redis] = await Promise.all([
    startMockUpstream({ routes: openaiReplayRoutes() }),
    startPostgres(),
    startRedis(),
  ]);
});
afterAll(async () => {
  for (const g of started) await g.close();
  await Promise.all([upstream?.close(), postgres?.close(), redis?.stop()]);
});

describe('POST /admin/keys/{id}/rotate on one gateway', () => {
  let g: RunningServer;
  beforeAll(async () => {
    g = await gateway('{ sqlite: ":memory:" }');
  });

  it('issues a new secret for the same key (id, limits, spend); the old one works for the default day; both prefixes show', async () => {
    const created = (
      await admin(g, 'POST', '/keys', { name: 'rotating', rpm_limit: 50, budget_usd: 5, budget_period: 'month' })
    ).body;
    const old = created.key as string;
    expect(await chat(g, old)).toBe(200);
    const before = Date.now();
    const rotated = await admin(g, 'POST', `/keys/${created.id}/rotate`); // no body: the default grace period
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.key as string;
    expect(fresh).toMatch(/^sk-sy-[A-Za-z0-9_-]{32}$/);
    expect(fresh).not.toBe(old);
    expect(rotated.body).toMatchObject({
      id: created.id,
      name: 'rotating',
      rpm_limit: 50,
      budget_usd: 5,
      budget_period: 'month',
      key_prefix: `${fresh.slice(0, 10)}…`,
      previous_key_prefix: created.key_prefix,
      revoked_at: null,
    });
    expect(rotated.body).not.toHaveProperty('key_hash');
    expect(rotated.body).not.toHaveProperty('previous_key_hash');
    const graceEnd = Date.parse(rotated.body.previous_key_expires_at as string);
    expect(graceEnd).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(graceEnd).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);
    expect(Date.parse(rotated.body.rotated_at as string)).toBeGreaterThanOrEqual(before - 1000);

    expect(await chat(g, fresh)).toBe(200);
    expect(await chat(g, old)).toBe(200);
    const listed = ((await admin(g, 'GET', '/keys')).body.data as Record<string, unknown>[]).find(
      (k) => k.id === created.id,
    );
    expect(listed).toMatchObject({
      key_prefix: `${fresh.slice(0, 10)}…`,
      previous_key_prefix: created.key_prefix,
      previous_key_expires_at: rotated.body.previous_key_expires_at,
    });
    expect(JSON.stringify(listed)).not.toContain(fresh);
    expect(JSON.stringify(listed)).not.toContain(old);
    // Three calls (one before, two after the rotation), all booked on the one key.
    await expect
      .poll(
        async () =>
          ((await admin(g, 'GET', `/usage?key=${created.id}`)).body.data as { requests: number }[])[0]?.requests,
      )
      .toBe(3);
    expect(listed?.spend_usd).toBeGreaterThan(0);
  });

  it('grace_seconds 0 ends the old secret at once; a short grace ends it when it runs out', async () => {
    const created = (await admin(g, 'POST', '/keys', { name: 'immediate' })).body;
    const now = await admin(g, 'POST', `/keys/${created.id}/rotate`, { grace_seconds: 0 });
    expect(now.body).toMatchObject({ previous_key_prefix: null, previous_key_expires_at: null });
    expect(await chat(g, created.key as string)).toBe(401);
    expect(await chat(g, now.body.key as string)).toBe(200);

    const short = await admin(g, 'POST', `/keys/${created.id}/rotate`, { grace_seconds: 1 });
    expect(await chat(g, now.body.key as string)).toBe(200);
    expect(await chat(g, short.body.key as string)).toBe(200);
    await expect.poll(() => chat(g, now.body.key as string), { timeout: 3000, interval: 100 }).toBe(401);
    expect(await chat(g, short.body.key as string)).toBe(200);
    // A third rotation drops the secret the first replaced, even inside its grace period.
    const third = await admin(g, 'POST', `/keys/${created.id}/rotate`, { grace_seconds: 60 });
    expect(await chat(g, short.body.key as string)).toBe(200);
    expect(await chat(g, third.body.key as string)).toBe(200);
    expect(await chat(g, created.key as string)).toBe(401);
  });

  it('refuses bad rotations: unknown key 404, revoked 409, bad grace_seconds or unknown fields 400, not JSON 415', async () => {
    const created = (await admin(g, 'POST', '/keys', { name: 'refusals' })).body;
    expect(await admin(g, 'POST', '/keys/key_nope/rotate', {})).toMatchObject({
      status: 404,
      body: { error: { code: 'key_not_found' } },
    });
    for (const grace of [-1, 1.5, 2_592_001, '60']) {
      const res = await admin(g, 'POST', `/keys/${created.id}/rotate`, { grace_seconds: grace });
      expect(res.status).toBe(400);
      expect(res.body.error?.message).toContain('grace_seconds');
    }
    expect((await admin(g, 'POST', `/keys/${created.id}/rotate`, { grace: 5 })).status).toBe(400);
    expect(
      (await admin(g, 'POST', `/keys/${created.id}/rotate`, 'grace=5', { 'content-type': 'text/plain' })).status,
    ).toBe(415);
    expect(await chat(g, created.key as string)).toBe(200); // none of those rotated it
    await admin(g, 'DELETE', `/keys/${created.id}`);
    expect(await admin(g, 'POST', `/keys/${created.id}/rotate`, {})).toMatchObject({
      status: 409,
      body: { error: { code: 'key_revoked' } },
    });
  });
});

describe('rotation across two replicas sharing Postgres and Redis', () => {
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    await postgres.createDatabase('rotation');
    const store = `{ postgres: "${postgres.url('rotation')}", timeout_ms: 2000 }`;
    const shared = `redis: { url: "${redis.url}", timeout_ms: 3000 }`;
    a = await gateway(store, shared);
    b = await gateway(store, shared);
  });

  it('a key rotated on one: the new secret works on the other at once, the old one for its grace period', async () => {
    const created = (await admin(a, 'POST', '/keys', { name: 'replicated' })).body;
    expect(await chat(b, created.key as string)).toBe(200);
    const rotated = (await admin(a, 'POST', `/keys/${created.id}/rotate`, { grace_seconds: 60 })).body;
    expect(await chat(b, rotated.key as string)).toBe(200); // no wait: B looks the unknown secret up in the store
    expect(await chat(b, created.key as string)).toBe(200);
    expect(await chat(a, created.key as string)).toBe(200);
    await expect
      .poll(async () => (await admin(b, 'GET', `/keys/${created.id}`)).body.previous_key_prefix as string | null)
      .toBe(created.key_prefix);
  });

  it("grace_seconds 0 on one: the other refuses the old secret within a second, and keeps the key's limits", async () => {
    const created = (await admin(a, 'POST', '/keys', { name: 'cut-over', rpm_limit: 1000 })).body;
    expect(await chat(b, created.key as string)).toBe(200);
    const rotated = (await admin(a, 'POST', `/keys/${created.id}/rotate`, { grace_seconds: 0 })).body;
    const at = Date.now();
    // Until b hears of the rotation (within a second), it still serves the old secret: each call it served is booked.
    let served = 1;
    const chatWithOld = async () => {
      const status = await chat(b, created.key as string);
      if (status === 200) served++;
      return status;
    };
    await expect.poll(chatWithOld, { timeout: 1000, interval: 20 }).toBe(401);
    expect(Date.now() - at).toBeLessThan(1000);
    expect(await chat(b, rotated.key as string)).toBe(200);
    served++;
    expect((await admin(b, 'GET', `/keys/${created.id}`)).body).toMatchObject({
      rpm_limit: 1000,
      key_prefix: rotated.key_prefix,
      previous_key_prefix: null,
    });
    await expect
      .poll(
        async () =>
          ((await admin(b, 'GET', `/usage?key=${created.id}`)).body.data as { requests: number }[])[0]?.requests,
      )
      .toBe(served);
  });
});
