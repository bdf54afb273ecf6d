import { createServer, type Socket } from 'node:net';
import { UsageLedger } from '@switchyard/accounts';
import { usageRow } from '@switchyard/testkit/account-store';
import { startPostgres } from '@switchyard/testkit/servers';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MIGRATIONS, PostgresAccountStore, migrate } from '../src/index.js';

const postgres = await startPostgres();
afterAll(() => postgres.close());

let n = 0;
const freshDatabase = () => postgres.createDatabase(`ops_${n++}`);

async function count(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query(sql)).rows[0].n);
  } finally {
    await client.end();
  }
}

describe('PostgresAccountStore operations', () => {
  it('migrates an empty database once when replicas start at the same time', async () => {
    const url = await freshDatabase();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    const applied = await Promise.all(pools.map((pool) => migrate(pool)));
    await Promise.all(pools.map((pool) => pool.end()));
    expect(applied.flat().sort((a, b) => a - b)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(applied.filter((versions) => versions.length > 0)).toHaveLength(1);
    expect(await count(url, 'SELECT COUNT(*) AS n FROM switchyard_migrations')).toBe(MIGRATIONS.length);
    // Stores opening at once on another empty database do not fail on each other's tables either.
    const other = await freshDatabase();
    const stores = await Promise.all(
      Array.from({ length: 3 }, () => PostgresAccountStore.open({ connectionString: other })),
    );
    await Promise.all(stores.map((s) => s.close()));
    expect(await count(other, 'SELECT COUNT(*) AS n FROM switchyard_migrations')).toBe(MIGRATIONS.length);
  });

  it('does not store a retried ledger batch twice', async () => {
    const url = await freshDatabase();
    const store = await PostgresAccountStore.open({ connectionString: url });
    const rows = [usageRow('k', 'm', 1, 0.1), usageRow('k', 'm', 2, 0.1)];
    await store.appendUsage(rows);
    await store.appendUsage([...rows, usageRow('k', 'm', 3, 0.1)]);
    expect((await store.usageTotals({}))[0]?.requests).toBe(3);
    await store.close();
  });

  it('gives up after timeoutMs when the server accepts but never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const started = performance.now();
    await expect(
      PostgresAccountStore.open({ connectionString: `postgres://u:p@127.0.0.1:${port}/db`, timeoutMs: 300 }),
    ).rejects.toThrow(/timeout/i);
    expect(performance.now() - started).toBeLessThan(5_000);
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it('loses no ledger row while Postgres is stopped and started again', async () => {
    const url = await freshDatabase();
    const poolErrors: unknown[] = [];
    const store = await PostgresAccountStore.open({
      connectionString: url,
      timeoutMs: 1_000,
      onError: (e) => poolErrors.push(e),
    });
    const writeErrors: unknown[] = [];
    const ledger = new UsageLedger(store, {
      flushMs: 20,
      maxBatch: 50,
      maxRetryMs: 100,
      onError: (e) => writeErrors.push(e),
    });
    for (let i = 0; i < 120; i++) ledger.record(usageRow('k', 'm', i, 0.001));
    await ledger.flush();
    await postgres.stop();
    await expect(store.ping()).rejects.toThrow();
    for (let i = 120; i < 400; i++) ledger.record(usageRow('k', 'm', i, 0.001));
    await ledger.flush();
    expect(writeErrors.length).toBeGreaterThan(0);
    expect(ledger.pending).toBe(280);
    await postgres.start();
    await vi.waitFor(() => expect(ledger.pending).toBe(0), { timeout: 10_000, interval: 20 });
    await store.ping();
    expect(await count(url, 'SELECT COUNT(*) AS n FROM switchyard_usage')).toBe(400);
    expect(await count(url, 'SELECT COUNT(DISTINCT created_at) AS n FROM switchyard_usage')).toBe(400);
    await store.close();
  });
});
