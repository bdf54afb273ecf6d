import { Accounts } from '@switchyard/accounts';
import { startPostgres } from '@switchyard/testkit/servers';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresAccountStore } from '../src/index.js';

// The audit log is append-only in Postgres: the gateway's role needs only INSERT and SELECT on switchyard_audit
// (docs/security-admin.md), and a trigger refuses UPDATE and DELETE even to the table's owner.
const postgres = await startPostgres();
afterAll(() => postgres.close());

async function run(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** `url` with another user and password. */
function as(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = password;
  return parsed.toString();
}

describe('switchyard_audit grants', () => {
  it('a gateway role with only INSERT and SELECT on the audit table runs the store; it cannot change or delete entries', async () => {
    const owner = await postgres.createDatabase('audit_grants');
    (await PostgresAccountStore.open({ connectionString: owner })).close(); // the owner migrates
    const role = `switchyard_gateway_${process.pid}`;
    await run(
      owner,
      `CREATE ROLE ${role} LOGIN PASSWORD 'gateway-password';
       GRANT CONNECT ON DATABASE audit_grants TO ${role};
       GRANT USAGE ON SCHEMA public TO ${role};
       GRANT SELECT ON switchyard_migrations TO ${role};
       DO $$ DECLARE t text; BEGIN
         FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('switchyard_audit', 'switchyard_migrations') LOOP
           EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ${role}', t);
         END LOOP;
       END $$;
       GRANT INSERT, SELECT ON switchyard_audit TO ${role};`,
    );
    const gateway = as(owner, role, 'gateway-password');
    const grants = await run(
      owner,
      `SELECT privilege_type FROM information_schema.role_table_grants WHERE grantee = '${role}' AND table_name = 'switchyard_audit' ORDER BY 1`,
    );
    expect(grants.rows.map((r) => r.privilege_type)).toEqual(['INSERT', 'SELECT']);

    const accounts = await Accounts.open({
      store: await PostgresAccountStore.open({ connectionString: gateway }),
      staticKeys: [],
    });
    const created = await accounts.keys.create({ name: 'audited' });
    await accounts.audit.record({
      actor: 'master_key',
      action: 'key.create',
      target: created.id,
      source_address: '127.0.0.1',
      after: { ...created },
    });
    const updated = await accounts.keys.update(created.id, { rpm_limit: 5 });
    await accounts.audit.record({
      actor: 'master_key',
      action: 'key.update',
      target: created.id,
      before: { rpm_limit: null },
      after: { ...updated },
    });
    const entries = await accounts.audit.list({ limit: 10 });
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ['key.update', created.id],
      ['key.create', created.id],
    ]);
    expect(JSON.stringify(entries)).not.toContain(created.key);
    await accounts.close();

    await expect(run(gateway, "UPDATE switchyard_audit SET actor = 'someone else'")).rejects.toThrow(
      /permission denied/,
    );
    await expect(run(gateway, 'DELETE FROM switchyard_audit')).rejects.toThrow(/permission denied/);
    await expect(run(owner, "UPDATE switchyard_audit SET actor = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(run(owner, 'DELETE FROM switchyard_audit')).rejects.toThrow(/append-only/);
    expect((await run(owner, 'SELECT count(*)::int AS n FROM switchyard_audit')).rows[0].n).toBe(2);
  });
});
