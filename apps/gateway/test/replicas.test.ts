import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import { startPostgres, type TestPostgres } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicaYaml, spawnReplicas } from './helpers/replicas.js';
import type { SpawnedGateway } from './helpers/spawn-gateway.js';

const KEY = 'sk-switchyard-test-key-0123456789';
const MASTER = 'sk-master-key-for-tests-0123456789';

let postgres: TestPostgres;
let upstream: MockUpstream;
let replicas: SpawnedGateway[] = [];

beforeAll(async () => {
  [postgres, upstream] = await Promise.all([startPostgres(), startMockUpstream({ routes: openaiReplayRoutes() })]);
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await Promise.all([upstream?.close(), postgres?.close()]);
});

const yaml = () =>
  replicaYaml({
    masterKey: MASTER,
    keys: [KEY],
    upstreamUrl: upstream.url,
    storeTimeoutMs: 1000,
    price: { input: 2, output: 8 },
  });

async function query<T>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgres.url('replicas') });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const chat = (replica: SpawnedGateway) =>
  new OpenAI({ baseURL: replica.url, apiKey: KEY, maxRetries: 0 }).chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hi' }],
  });

async function staticRequests(replica: SpawnedGateway): Promise<number | undefined> {
  const res = await fetch(`${replica.origin}/admin/usage?key=static`, {
    headers: { authorization: `Bearer ${MASTER}` },
  });
  if (res.status !== 200) return undefined;
  return ((await res.json()) as { data: { requests: number }[] }).data[0]?.requests;
}

describe('two gateway processes sharing one Postgres', () => {
  it('migrate an empty database once when they start together, and each reports the usage of both', async () => {
    const url = await postgres.createDatabase('replicas');
    replicas = await spawnReplicas(url, [yaml(), yaml()]);
    const migrations = await query<{ version: number; n: string }>(
      'SELECT version, COUNT(*) AS n FROM switchyard_migrations GROUP BY version',
    );
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.every((m) => Number(m.n) === 1)).toBe(true);

    const [a, b] = replicas as [SpawnedGateway, SpawnedGateway];
    await Promise.all([...Array.from({ length: 5 }, () => chat(a)), ...Array.from({ length: 7 }, () => chat(b))]);
    await expect.poll(() => staticRequests(a), { timeout: 10_000 }).toBe(12);
    await expect.poll(() => staticRequests(b), { timeout: 10_000 }).toBe(12);
  });

  it('lose no ledger row of either while Postgres is stopped and started again', async () => {
    const [a, b] = replicas as [SpawnedGateway, SpawnedGateway];
    await postgres.stop();
    for (const replica of [a, b]) {
      const ready = await fetch(`${replica.origin}/readyz`);
      expect(ready.status).toBe(503);
    }
    await Promise.all([...Array.from({ length: 4 }, () => chat(a)), ...Array.from({ length: 6 }, () => chat(b))]);
    await postgres.start();
    await expect.poll(() => staticRequests(a), { timeout: 20_000 }).toBe(22);
    await expect.poll(() => staticRequests(b), { timeout: 20_000 }).toBe(22);
    const [row] = await query<{ n: string }>('SELECT COUNT(*) AS n FROM switchyard_usage');
    expect(Number(row?.n)).toBe(22);
    expect((await fetch(`${b.origin}/readyz`)).status).toBe(200);
  });
});
