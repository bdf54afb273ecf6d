import {
  Accounts,
  type AccountStore,
  type AuditEntry,
  type Team,
  type UsageRow,
  type VirtualKey,
} from '@switchyard/accounts';
import { describe, expect, it } from 'vitest';

/** How the shared suite gets stores of one implementation. */
export interface AccountStoreFactory {
  /**
   * Opens the store named `name` (a file, a database…): empty the first time, and holding what was written before
   * when opened again with the same name. Each test uses its own name.
   */
  open(name: string): Promise<AccountStore>;
}

import { auditEntry, key, team, uniqueName, usageRow } from './account-store-samples.js';
import { usageLedgerCases } from './account-store-usage-cases.js';
import { expectSpentGroupRefusals, spendAndReopen } from './accounts-reopen.js';
import { describeAdminSessionStore } from './describe-admin-session-store.js';
import { describeOrganizationStore } from './describe-organization-store.js';

export { usageRow } from './account-store-samples.js';

/**
 * The behaviour every {@link AccountStore} must have, as one vitest suite: keys round-trip (all fields, revocation,
 * update, rotation of the secret), the audit log (entries round-trip, newest first, filtered by time, actor, target
 * and action, paged by a cursor that skips nothing), usage totals grouped by key, model and UTC day with filters, spend since a time, ledger rows listed newest
 * first with filters and a cursor, large batches, ping, and
 * {@link Accounts} on top of the store surviving a reopen (keys, limits, spent budget). Run it once per store:
 * `describeAccountStore('SQLite', { open: async (name) => new SqliteAccountStore(join(dir, name)) })`.
 */
export function describeAccountStore(label: string, factory: AccountStoreFactory): void {
  describe(`AccountStore behaviour: ${label}`, () => {
    it('answers ping', async () => {
      const store = await factory.open(uniqueName());
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
    });

    it('inserts, lists in creation order, gets and updates keys, every field round-tripping', async () => {
      const store = await factory.open(uniqueName());
      const full = key('key_2', {
        models: ['gpt-4o*', 'anthropic/*'],
        rpm_limit: 20,
        tpm_limit: 5000,
        concurrency_limit: 4,
        budget_usd: 1.25,
        budget_period: 'month',
        expires_at: '2027-01-01T00:00:00.000Z',
        metadata: { team: 'a', nested: { n: 1, list: [true, null] } },
        team_id: 'team_1',
        budget_started_at: '2026-11-20T08:30:00.000Z',
        end_user_budget_usd: 0.5,
        end_user_budget_period: 'week',
        end_user_rpm_limit: 6,
        session_budget_usd: 2.5,
        session_rpm_limit: 30,
      });
      await store.insertKey(key('key_1'));
      await store.insertKey(full);
      expect(await store.listKeys()).toEqual([key('key_1'), full]);
      expect(await store.getKey('key_2')).toEqual(full);
      expect(await store.getKey('key_missing')).toBeUndefined();
      expect(await store.getKeyByHash(full.key_hash)).toEqual(full);
      expect(await store.getKeyByHash('0'.repeat(64))).toBeUndefined();
      const changed: VirtualKey = {
        ...full,
        name: 'renamed',
        models: null,
        rpm_limit: null,
        concurrency_limit: 2,
        budget_usd: 3,
        metadata: null,
        revoked_at: '2026-11-22T10:00:00.500Z',
        team_id: null,
        session_budget_usd: null,
        budget_started_at: '2026-11-22T10:00:00.000Z',
      };
      await store.updateKey(changed);
      expect(await store.getKey('key_2')).toEqual(changed);
      expect(await store.getKey('key_1')).toEqual(key('key_1'));
      await expect(store.insertKey({ ...key('key_3'), key_hash: full.key_hash })).rejects.toThrow();
      await store.close();
    });

    it('rotates a key secret: only the secret fields change, the previous secret is found by hash, updates leave secrets alone', async () => {
      const store = await factory.open(uniqueName());
      const original = key('key_7', { rpm_limit: 5, metadata: { team: 'a' } });
      await store.insertKey(original);
      const rotated: VirtualKey = {
        ...original,
        name: 'ignored by a rotation',
        key_hash: 'f'.repeat(64),
        key_prefix: 'sk-sy-new1…',
        previous_key_hash: original.key_hash,
        previous_key_prefix: original.key_prefix,
        previous_key_expires_at: '2026-11-23T10:00:00.000Z',
        rotated_at: '2026-11-22T10:00:00.000Z',
      };
      await store.rotateKeySecret(rotated);
      const expected = { ...rotated, name: original.name };
      expect(await store.getKey('key_7')).toEqual(expected);
      expect(await store.getKeyByHash('f'.repeat(64))).toEqual(expected);
      expect(await store.getKeyByHash(original.key_hash)).toEqual(expected);
      // An update from a replica that has not heard of the rotation keeps the stored secrets.
      await store.updateKey({ ...original, name: 'renamed', rpm_limit: 9 });
      expect(await store.getKey('key_7')).toEqual({ ...expected, name: 'renamed', rpm_limit: 9 });
      // Rotating again with no grace period drops the previous secret.
      const again: VirtualKey = {
        ...expected,
        name: 'renamed',
        rpm_limit: 9,
        key_hash: 'e'.repeat(64),
        key_prefix: 'sk-sy-new2…',
        previous_key_hash: null,
        previous_key_prefix: null,
        previous_key_expires_at: null,
        rotated_at: '2026-11-22T11:00:00.000Z',
      };
      await store.rotateKeySecret(again);
      expect(await store.getKey('key_7')).toEqual(again);
      expect(await store.getKeyByHash(original.key_hash)).toBeUndefined();
      expect(await store.getKeyByHash('f'.repeat(64))).toBeUndefined();
      await store.close();
    });

    it('appends audit entries and lists them newest first, filtered by time, actor, target and action, paged by a cursor', async () => {
      const name = uniqueName();
      const store = await factory.open(name);
      const t = Date.UTC(2026, 10, 20);
      expect(await store.listAudit({ limit: 10 })).toEqual([]);
      // Entries 3, 4 and 5 share a millisecond: the cursor must order them by id and skip none.
      const entries = [
        auditEntry(1, t, 'master_key', 'key_a', 'key.create'),
        auditEntry(2, t + 1, 'oidc:ada@example.com', 'key_a'),
        auditEntry(3, t + 2, 'master_key', 'key_b'),
        auditEntry(4, t + 2, 'master_key', null, 'sign_in'),
        auditEntry(5, t + 2, 'oidc:ada@example.com', 'key_b', 'key.rotate'),
        auditEntry(6, t + 3, 'master_key', 'key_a', 'key.revoke'),
      ];
      for (const entry of entries) await store.appendAudit(entry);
      const ids = (list: AuditEntry[]) => list.map((e) => Number(e.id.slice(4)));
      expect(await store.listAudit({ limit: 10 })).toEqual([...entries].reverse());
      expect(ids(await store.listAudit({ limit: 10, actor: 'master_key' }))).toEqual([6, 4, 3, 1]);
      expect(ids(await store.listAudit({ limit: 10, target: 'key_b' }))).toEqual([5, 3]);
      expect(ids(await store.listAudit({ limit: 10, action: 'key.rotate' }))).toEqual([5]);
      expect(ids(await store.listAudit({ limit: 10, from: t + 1, to: t + 3 }))).toEqual([5, 4, 3, 2]);
      expect(ids(await store.listAudit({ limit: 10, actor: 'master_key', target: 'key_a', from: t + 1 }))).toEqual([6]);
      const pages: number[][] = [];
      let before: { created_at: number; id: string } | undefined;
      for (;;) {
        const page = await store.listAudit({ limit: 2, before });
        if (page.length === 0) break;
        pages.push(ids(page));
        const last = page.at(-1) as AuditEntry;
        before = { created_at: last.created_at, id: last.id };
      }
      expect(pages).toEqual([
        [6, 5],
        [4, 3],
        [2, 1],
      ]);
      expect(ids(await store.listAudit({ limit: 10, before: { created_at: t + 2 } }))).toEqual([2, 1]);
      await expect(store.appendAudit(entries[0] as AuditEntry)).rejects.toThrow();
      await store.close();
      const reopened = await factory.open(name);
      expect(await reopened.listAudit({ limit: 1 })).toEqual([entries[5]]);
      await reopened.close();
    });

    it('inserts, lists, gets, updates and deletes teams, every field round-tripping', async () => {
      const store = await factory.open(uniqueName());
      expect(await store.listTeams()).toEqual([]);
      const full = team('team_2', {
        models: ['gpt-4o*'],
        rpm_limit: 100,
        tpm_limit: 50_000,
        concurrency_limit: 8,
        budget_usd: 250.5,
        budget_period: 'month',
        budget_started_at: '2026-11-03T00:00:00.000Z',
        end_user_budget_usd: 1.5,
        end_user_budget_period: 'day',
        end_user_rpm_limit: 10,
        session_budget_usd: 5,
        session_rpm_limit: 60,
        metadata: { cost_center: 'r&d' },
      });
      await store.insertTeam(team('team_1'));
      await store.insertTeam(full);
      expect(await store.listTeams()).toEqual([team('team_1'), full]);
      expect(await store.getTeam('team_2')).toEqual(full);
      expect(await store.getTeam('team_missing')).toBeUndefined();
      const changed: Team = {
        ...full,
        name: 'renamed',
        models: null,
        budget_usd: null,
        budget_period: 'week',
        session_budget_usd: null,
        metadata: null,
      };
      await store.updateTeam(changed);
      expect(await store.getTeam('team_2')).toEqual(changed);
      await store.deleteTeam('team_1');
      await store.deleteTeam('team_missing');
      expect(await store.listTeams()).toEqual([changed]);
      await expect(store.insertTeam(team('team_2'))).rejects.toThrow();
      await store.close();
    });

    usageLedgerCases(factory);

    it('backs Accounts across a reopen: keys, limits, revocation and the spent budget', async () => {
      const name = uniqueName();
      const accounts = await Accounts.open({ store: await factory.open(name), staticKeys: [] });
      const created = await accounts.keys.create({
        name: 'team-a',
        models: ['gpt-*'],
        rpm_limit: 10,
        budget_usd: 0.01,
        budget_period: 'month',
        metadata: { team: 'a' },
      });
      await accounts.keys.revoke((await accounts.keys.create({ name: 'old' })).id);
      const principal = await accounts.authenticate(`Bearer ${created.key}`);
      const admission = await accounts.admit(principal, 'gpt-4o', 1);
      accounts.settle(principal, admission, { ...usageRow('', 'gpt-4o', Date.now(), 0.02), key_id: undefined } as Omit<
        UsageRow,
        'key_id'
      >);
      await accounts.close();
      const reopened = await Accounts.open({ store: await factory.open(name), staticKeys: [] });
      const again = await reopened.authenticate(`Bearer ${created.key}`);
      expect(again).toMatchObject({ kind: 'virtual' });
      expect(reopened.keys.get(created.id)).toMatchObject({
        name: 'team-a',
        models: ['gpt-*'],
        rpm_limit: 10,
        budget_usd: 0.01,
        budget_period: 'month',
        metadata: { team: 'a' },
      });
      expect(reopened.keys.list().find((k) => k.name === 'old')?.revoked_at).toEqual(expect.any(String));
      await expect(reopened.admit(again, 'gpt-4o', 1)).rejects.toMatchObject({
        status: 429,
        code: 'insufficient_quota',
      });
      expect(await reopened.usage({ key_id: created.id })).toMatchObject([{ requests: 1, cost_usd: 0.02 }]);
      await reopened.close();
    });

    it("backs Accounts' teams across a reopen: the team, its members and its spent budget", async () => {
      const name = uniqueName();
      const accounts = await Accounts.open({ store: await factory.open(name), staticKeys: [] });
      const created = await accounts.teams.create({
        name: 'research',
        models: ['gpt-*'],
        budget_usd: 0.01,
        budget_period: 'month',
      });
      const member = await accounts.keys.create({ name: 'member', team_id: created.id });
      const { reopened, principal } = await spendAndReopen(factory, name, accounts, member.key);
      expect(reopened.teams.list()).toMatchObject([
        { id: created.id, name: 'research', models: ['gpt-*'], budget_usd: 0.01 },
      ]);
      expect(reopened.keys.get(member.id)).toMatchObject({ team_id: created.id });
      await expectSpentGroupRefusals(reopened, principal, 'team');
      expect(await reopened.usage({}, 'team')).toMatchObject([{ group: created.id, requests: 1, cost_usd: 0.02 }]);
      await reopened.close();
    });

    describeOrganizationStore(factory);
  });
  describeAdminSessionStore(label, factory);
}
