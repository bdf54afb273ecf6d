import { Accounts, type AccountStore, type Organization, type UsageRow } from '@switchyard/accounts';
import { expect, it } from 'vitest';
import { organization, team, uniqueName, usageRow } from './account-store-samples.js';
import { expectSpentGroupRefusals, spendAndReopen } from './accounts-reopen.js';

/**
 * The organisation part of the account store suite (run inside `describeAccountStore`): organisations round-trip
 * with every field, teams keep their `organization_id`, ledger rows theirs (totals grouped and filtered by it), and
 * `Accounts` on top of the store keeps an organisation's allow-list and spent budget across a reopen.
 */
export function describeOrganizationStore(factory: { open(name: string): Promise<AccountStore> }): void {
  it('inserts, lists, gets, updates and deletes organizations, every field round-tripping; teams keep theirs', async () => {
    const store = await factory.open(uniqueName());
    expect(await store.listOrganizations()).toEqual([]);
    const full = organization('org_2', {
      models: ['gpt-4o*'],
      rpm_limit: 1000,
      tpm_limit: 500_000,
      concurrency_limit: 40,
      budget_usd: 5000.25,
      budget_period: 'month',
      budget_started_at: '2026-11-03T00:00:00.000Z',
      end_user_budget_usd: 2.5,
      end_user_budget_period: 'week',
      end_user_rpm_limit: 20,
      session_budget_usd: 10,
      session_rpm_limit: 120,
      metadata: { region: 'eu' },
    });
    await store.insertOrganization(organization('org_1'));
    await store.insertOrganization(full);
    expect(await store.listOrganizations()).toEqual([organization('org_1'), full]);
    expect(await store.getOrganization('org_2')).toEqual(full);
    expect(await store.getOrganization('org_missing')).toBeUndefined();
    const changed: Organization = { ...full, name: 'renamed', models: null, budget_usd: null, metadata: null };
    await store.updateOrganization(changed);
    expect(await store.getOrganization('org_2')).toEqual(changed);
    await store.deleteOrganization('org_1');
    await store.deleteOrganization('org_missing');
    expect(await store.listOrganizations()).toEqual([changed]);
    await expect(store.insertOrganization(organization('org_2'))).rejects.toThrow();
    const member = team('team_1', { organization_id: 'org_2' });
    await store.insertTeam(member);
    expect(await store.getTeam('team_1')).toEqual(member);
    await store.updateTeam({ ...member, organization_id: null });
    expect(await store.getTeam('team_1')).toEqual({ ...member, organization_id: null });
    await store.close();
  });

  it("keeps each row's organization; totals by organization (rows without one left out) and filters by it", async () => {
    const store = await factory.open(uniqueName());
    const t = Date.UTC(2026, 10, 22);
    const row = (id: string, team_id: string | null, organization_id: string | null, at: number, cost: number) => ({
      ...usageRow('k1', 'm', at, cost),
      request_id: id,
      team_id,
      organization_id,
    });
    const rows: UsageRow[] = [
      row('o1', 'team_a', 'org_a', t, 0.5),
      row('o2', 'team_b', 'org_a', t + 1, 0.25),
      row('o3', 'team_c', 'org_b', t + 2, 1),
      row('o4', 'team_d', null, t + 3, 2),
    ];
    await store.appendUsage(rows);
    const groups = async (filter = {}) =>
      (await store.usageTotals(filter, 'organization')).map((g) => [g.group, g.requests, g.cost_usd]);
    expect(await groups()).toEqual([
      ['org_a', 2, 0.75],
      ['org_b', 1, 1],
    ]);
    expect(await groups({ from: t + 1 })).toEqual([
      ['org_a', 1, 0.25],
      ['org_b', 1, 1],
    ]);
    expect((await store.usageTotals({ organization_id: 'org_a' }, 'team')).map((g) => g.group)).toEqual([
      'team_a',
      'team_b',
    ]);
    // What rebuilds an organisation's or team's buckets after a Redis restart: admitted rows since a time.
    expect(await store.recentUsage({ organization_id: 'org_a' }, t)).toEqual({ requests: 2, tokens: 30 });
    expect(await store.recentUsage({ team_id: 'team_c' }, t + 3)).toEqual({ requests: 0, tokens: 0 });
    expect(await store.recentUsage('k1', t + 2)).toEqual({ requests: 2, tokens: 30 });
    const ids = (list: UsageRow[]) => list.map((r) => r.request_id);
    expect(ids(await store.listUsage({ limit: 10, organization_id: 'org_a' }))).toEqual(['o2', 'o1']);
    expect((await store.listUsage({ limit: 10 })).find((r) => r.request_id === 'o3')).toEqual(rows[2]);
    await store.close();
  });

  it("backs Accounts' organizations across a reopen: the organization, its teams and its spent budget", async () => {
    const name = uniqueName();
    const accounts = await Accounts.open({ store: await factory.open(name), staticKeys: [] });
    const org = await accounts.organizations.create({
      name: 'acme',
      models: ['gpt-*'],
      budget_usd: 0.01,
      budget_period: 'month',
    });
    const created = await accounts.teams.create({ name: 'research', organization_id: org.id });
    const member = await accounts.keys.create({ name: 'member', team_id: created.id });
    const { reopened, principal } = await spendAndReopen(factory, name, accounts, member.key);
    expect(reopened.organizations.list()).toMatchObject([{ id: org.id, name: 'acme', budget_usd: 0.01 }]);
    expect(reopened.teams.list()).toMatchObject([{ id: created.id, organization_id: org.id }]);
    await expectSpentGroupRefusals(reopened, principal, 'organization');
    expect(await reopened.usage({}, 'organization')).toMatchObject([{ group: org.id, requests: 1, cost_usd: 0.02 }]);
    await reopened.close();
  });
}
