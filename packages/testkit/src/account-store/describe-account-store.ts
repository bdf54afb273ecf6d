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
import { describeAdminSessionStore } from './describe-admin-session-store.js';

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

    it("keeps each row's team and end user; totals by team and by end user (rows without one left out) and filters by team, end user and session", async () => {
      const store = await factory.open(uniqueName());
      const t = Date.UTC(2026, 10, 22);
      const row = (
        id: string,
        team_id: string | null,
        end_user: string | null,
        session_id: string | null,
        at: number,
        cost: number,
      ): UsageRow => ({
        ...usageRow(team_id === 'team_b' ? 'k2' : 'k1', 'm', at, cost),
        request_id: id,
        team_id,
        end_user,
        session_id,
      });
      const rows = [
        row('u1', 'team_a', 'alice', 's1', t, 0.5),
        row('u2', 'team_a', 'bob', null, t + 1, 0.25),
        row('u3', 'team_b', 'alice', 's2', t + 2, 1),
        row('u4', null, null, 's1', t + 3, 2),
      ];
      await store.appendUsage(rows);
      const groups = async (by: 'team' | 'end_user', filter = {}) =>
        (await store.usageTotals(filter, by)).map((g) => [g.group, g.requests, g.cost_usd]);
      expect(await groups('team')).toEqual([
        ['team_a', 2, 0.75],
        ['team_b', 1, 1],
      ]);
      expect(await groups('end_user')).toEqual([
        ['alice', 2, 1.5],
        ['bob', 1, 0.25],
      ]);
      expect(await groups('end_user', { team_id: 'team_a' })).toEqual([
        ['alice', 1, 0.5],
        ['bob', 1, 0.25],
      ]);
      expect((await store.usageTotals({ team_id: 'team_a', from: t + 1 }))[0]?.cost_usd).toBe(0.25);
      expect((await store.usageTotals({ end_user: 'alice', key_id: 'k2' }))[0]?.cost_usd).toBe(1);
      expect((await store.usageTotals({ session_id: 's1' }))[0]?.cost_usd).toBe(2.5);
      const ids = (list: UsageRow[]) => list.map((r) => r.request_id);
      expect(ids(await store.listUsage({ limit: 10, team_id: 'team_a' }))).toEqual(['u2', 'u1']);
      expect(ids(await store.listUsage({ limit: 10, end_user: 'alice' }))).toEqual(['u3', 'u1']);
      expect(ids(await store.listUsage({ limit: 10, session_id: 's1' }))).toEqual(['u4', 'u1']);
      expect(ids(await store.listUsage({ limit: 10, from: t + 1, to: t + 3 }))).toEqual(['u3', 'u2']);
      expect((await store.listUsage({ limit: 10 })).find((r) => r.request_id === 'u1')).toEqual(rows[0]);
      await store.close();
    });

    it('totals usage by key, model and UTC day, with filters, and spend since a time', async () => {
      const store = await factory.open(uniqueName());
      const day = Date.UTC(2026, 10, 20);
      expect(await store.usageTotals({})).toEqual([
        { requests: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost_usd: 0, cache_hits: 0 },
      ]);
      expect(await store.usageTotals({}, 'key')).toEqual([]);
      await store.appendUsage([
        usageRow('k1', 'a', day, 0.5),
        usageRow('k1', 'b', day + 86_400_000, 0.25),
        usageRow('k2', 'a', day + 86_399_999, 1),
      ]);
      expect(await store.usageTotals({})).toEqual([
        { requests: 3, prompt_tokens: 30, completion_tokens: 15, total_tokens: 45, cost_usd: 1.75, cache_hits: 0 },
      ]);
      expect((await store.usageTotals({}, 'key')).map((t) => [t.group, t.requests, t.cost_usd])).toEqual([
        ['k1', 2, 0.75],
        ['k2', 1, 1],
      ]);
      expect((await store.usageTotals({}, 'day')).map((t) => [t.group, t.requests])).toEqual([
        ['2026-11-20', 2],
        ['2026-11-21', 1],
      ]);
      expect((await store.usageTotals({ key_id: 'k1' }, 'day')).map((t) => t.group)).toEqual([
        '2026-11-20',
        '2026-11-21',
      ]);
      expect(
        (await store.usageTotals({ model: 'a', from: day, to: day + 1 }, 'model')).map((t) => [t.group, t.requests]),
      ).toEqual([['a', 1]]);
      expect((await store.usageTotals({ key_id: 'k2', model: 'a' })).map((t) => t.total_tokens)).toEqual([15]);
      expect(await store.spendSince('k1', day + 1)).toBe(0.25);
      expect(await store.spendSince('k1', 0)).toBe(0.75);
      expect(await store.spendSince('nobody', 0)).toBe(0);
      // Recent use counts admitted calls (an upstream attempt or a cache hit), not refusals.
      await store.appendUsage([
        {
          ...usageRow('k1', 'a', day + 86_400_001, 0),
          attempts: 0,
          status: 429,
          prompt_tokens: 0,
          completion_tokens: 0,
        },
      ]);
      await store.appendUsage([{ ...usageRow('k1', 'a', day + 86_400_002, 0), attempts: 0, cache_hit: true }]);
      expect(await store.recentUsage('k1', day + 1)).toEqual({ requests: 2, tokens: 30 });
      expect(await store.recentUsage('nobody', 0)).toEqual({ requests: 0, tokens: 0 });
      await store.close();
    });

    it('appends a large batch in one call and keeps every field of a row', async () => {
      const store = await factory.open(uniqueName());
      const rows = Array.from({ length: 2500 }, (_, i) => ({
        ...usageRow(`k${i % 7}`, 'm', 1_000 + i, 0.001),
        stream: i % 2 === 0,
        ttfb_ms: i % 3 ? 3 : null,
      }));
      await store.appendUsage(rows);
      await store.appendUsage([]);
      const [total] = await store.usageTotals({});
      expect(total).toMatchObject({ requests: 2500, prompt_tokens: 25_000, completion_tokens: 12_500 });
      expect(total?.cost_usd).toBeCloseTo(2.5, 9);
      expect((await store.usageTotals({ from: 1_000, to: 1_010 }, 'key')).reduce((n, t) => n + t.requests, 0)).toBe(10);
      await store.close();
    });

    it('lists ledger rows newest first, filtered by key, model and status, paged by a cursor that skips no row; cache hits round-trip and are counted in totals', async () => {
      const store = await factory.open(uniqueName());
      const t = Date.UTC(2026, 10, 20);
      const rows: UsageRow[] = [
        { ...usageRow('k1', 'a', t, 0.1), request_id: 'r1', ttfb_ms: null },
        { ...usageRow('k1', 'b', t + 1, 0.1), request_id: 'r2', status: 429 },
        {
          ...usageRow('k2', 'a', t + 2, 0),
          request_id: 'r3',
          stream: true,
          price_source: 'none',
          prompt_tokens: 0,
          completion_tokens: 0,
          attempts: 0,
          cache_hit: true,
        },
        { ...usageRow('k1', 'a', t + 2, 0.1), request_id: 'r4', status: 502, hedged: true, stream_failover: true },
        { ...usageRow('k1', 'a', t + 2, 0.1), request_id: 'r5' },
      ];
      await store.appendUsage(rows);
      const ids = (list: { request_id: string }[]) => list.map((r) => r.request_id);
      const all = await store.listUsage({ limit: 10 });
      expect(ids(all)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
      expect(all[2]).toEqual(rows[2]);
      expect(all[4]).toEqual(rows[0]);
      expect(all.map((r) => r.price_source)).toEqual(['config', 'config', 'none', 'config', 'config']);
      expect(all.map((r) => r.cache_hit)).toEqual([false, false, true, false, false]);
      expect(all[1]).toEqual(rows[3]);
      expect(all.map((r) => [r.hedged, r.stream_failover])).toEqual([
        [false, false],
        [true, true],
        [false, false],
        [false, false],
        [false, false],
      ]);
      expect(await store.usageTotals({}, 'key')).toMatchObject([
        { group: 'k1', requests: 4, cache_hits: 0 },
        { group: 'k2', requests: 1, cache_hits: 1, prompt_tokens: 0, cost_usd: 0 },
      ]);
      expect(ids(await store.listUsage({ limit: 10, key_id: 'k1', model: 'a' }))).toEqual(['r5', 'r4', 'r1']);
      expect(ids(await store.listUsage({ limit: 10, status_min: 400 }))).toEqual(['r4', 'r2']);
      expect(ids(await store.listUsage({ limit: 10, status_min: 400, status_max: 499 }))).toEqual(['r2']);
      expect(ids(await store.listUsage({ limit: 10, status_max: 399 }))).toEqual(['r5', 'r3', 'r1']);
      expect(ids(await store.listUsage({ limit: 10, before: { created_at: t + 2 } }))).toEqual(['r2', 'r1']);
      const page1 = await store.listUsage({ limit: 2 });
      const page2 = await store.listUsage({
        limit: 2,
        before: { created_at: page1[1]!.created_at, request_id: page1[1]!.request_id },
      });
      const page3 = await store.listUsage({
        limit: 2,
        before: { created_at: page2[1]!.created_at, request_id: page2[1]!.request_id },
      });
      expect([ids(page1), ids(page2), ids(page3)]).toEqual([['r5', 'r4'], ['r3', 'r2'], ['r1']]);
      await store.close();
    });

    it("keeps each row's operation, session, agent and parent agent, and totals by session and by agent (rows without one left out)", async () => {
      const store = await factory.open(uniqueName());
      const t = Date.UTC(2026, 10, 21);
      const labelled = (id: string, session: string | null, agent: string | null, cost: number): UsageRow => ({
        ...usageRow('k1', 'claude', t, cost),
        request_id: id,
        operation: 'anthropicMessages',
        session_id: session,
        agent_id: agent,
        parent_agent_id: agent && agent !== 'main' ? 'main' : null,
      });
      const rows = [
        labelled('s1', 'sess-a', 'main', 0.5),
        labelled('s2', 'sess-a', 'sub-1', 0.25),
        labelled('s3', 'sess-b', 'main', 1),
        labelled('s4', null, null, 2),
      ];
      rows.push({ ...labelled('s5', 'sess-a', 'main', 0), operation: 'anthropicCountTokens' });
      await store.appendUsage(rows);
      expect((await store.usageTotals({}, 'session')).map((g) => [g.group, g.requests, g.cost_usd])).toEqual([
        ['sess-a', 3, 0.75],
        ['sess-b', 1, 1],
      ]);
      expect((await store.usageTotals({}, 'agent')).map((g) => [g.group, g.requests, g.cost_usd])).toEqual([
        ['main', 3, 1.5],
        ['sub-1', 1, 0.25],
      ]);
      const listed = await store.listUsage({ limit: 10 });
      expect(listed.find((r) => r.request_id === 's2')).toEqual(rows[1]);
      expect(listed.find((r) => r.request_id === 's5')?.operation).toBe('anthropicCountTokens');
      expect(listed.find((r) => r.request_id === 's4')).toMatchObject({
        session_id: null,
        agent_id: null,
        parent_agent_id: null,
      });
      await store.close();
    });

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
      const principal = await accounts.authenticate(`Bearer ${member.key}`);
      const admission = await accounts.admit(principal, 'gpt-4o', 1);
      await accounts.settle(principal, admission, {
        ...usageRow('', 'gpt-4o', Date.now(), 0.02),
        key_id: undefined,
      } as Omit<UsageRow, 'key_id'>);
      await accounts.close();
      const reopened = await Accounts.open({ store: await factory.open(name), staticKeys: [] });
      expect(reopened.teams.list()).toMatchObject([
        { id: created.id, name: 'research', models: ['gpt-*'], budget_usd: 0.01 },
      ]);
      expect(reopened.keys.get(member.id)).toMatchObject({ team_id: created.id });
      const again = await reopened.authenticate(`Bearer ${member.key}`);
      await expect(reopened.admit(again, 'claude-3', 1)).rejects.toMatchObject({
        status: 403,
        code: 'model_not_allowed',
      });
      await expect(reopened.admit(again, 'gpt-4o', 1)).rejects.toMatchObject({
        status: 429,
        code: 'insufficient_quota',
        message: expect.stringContaining("This team's budget of 0.01 USD per month is spent"),
      });
      expect(await reopened.usage({}, 'team')).toMatchObject([{ group: created.id, requests: 1, cost_usd: 0.02 }]);
      await reopened.close();
    });
  });
  describeAdminSessionStore(label, factory);
}
