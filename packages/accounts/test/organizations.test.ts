import { describe, expect, it } from 'vitest';
import { Accounts, type BudgetSettledEvent, budgetCrossings } from '../src/index.js';
import { memoryStore } from './memory-store.js';

const usage = (cost: number) => ({
  request_id: 'r',
  model: 'gpt-4o',
  provider: 'openai',
  upstream_model: 'gpt-4o',
  prompt_tokens: 1,
  completion_tokens: 1,
  cost_usd: cost,
  latency_ms: 1,
  ttfb_ms: 1,
  status: 200,
  stream: false,
  created_at: Date.now(),
});

/** An organisation with two teams of one key each. */
async function hierarchy(org: Parameters<Accounts['organizations']['create']>[0], events?: BudgetSettledEvent[]) {
  const store = memoryStore();
  const accounts = await Accounts.open({
    store,
    staticKeys: [],
    ...(events && { onBudgetSettled: (e: BudgetSettledEvent) => void events.push(e) }),
  });
  const organization = await accounts.organizations.create(org);
  const teams = [
    await accounts.teams.create({ name: 'a', organization_id: organization.id }),
    await accounts.teams.create({ name: 'b', organization_id: organization.id, models: ['gpt-4o*', 'claude-*'] }),
  ];
  const keys = [
    await accounts.keys.create({ name: 'ka', team_id: teams[0]?.id }),
    await accounts.keys.create({ name: 'kb', team_id: teams[1]?.id }),
  ];
  const principals = await Promise.all(keys.map((k) => accounts.authenticate(`Bearer ${k.key}`)));
  return { accounts, store, organization, teams, principals };
}

describe('Organizations', () => {
  it("an organization's rpm over two teams' keys: of 20 parallel calls exactly its 5 admitted, refusals naming it", async () => {
    const { accounts, principals } = await hierarchy({ name: 'acme', rpm_limit: 5 });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => accounts.admit(principals[i % 2] as never, 'gpt-4o', 1)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(15);
    for (const r of refused)
      expect(r.reason).toMatchObject({
        status: 429,
        code: 'rate_limit_exceeded',
        message: "Rate limit reached for this organization's requests: 5 per minute.",
      });
  });

  it("narrows models: a team's list within the organization's, never wider", async () => {
    const { accounts, principals } = await hierarchy({ name: 'acme', models: ['gpt-*'] });
    await expect(accounts.admit(principals[0] as never, 'gpt-4o', 1)).resolves.toBeDefined();
    // Team b allows claude-*, but its organization does not.
    await expect(accounts.admit(principals[1] as never, 'claude-3', 1)).rejects.toMatchObject({
      status: 403,
      code: 'model_not_allowed',
    });
    await expect(accounts.admit(principals[0] as never, 'claude-3', 1)).rejects.toMatchObject({ status: 403 });
  });

  it('books the organization on ledger rows, spends its budget, and raises its budget alerts', async () => {
    const events: BudgetSettledEvent[] = [];
    const { accounts, store, organization, teams, principals } = await hierarchy(
      { name: 'acme', budget_usd: 1, budget_period: 'day' },
      events,
    );
    for (const principal of principals) {
      const admission = await accounts.admit(principal, 'gpt-4o', { tokens: 2, costUsd: 0.01 });
      expect(admission.organizationId).toBe(organization.id);
      await accounts.settle(principal, admission, usage(0.5));
    }
    await accounts.ledger.flush();
    expect(store.rows.map((r) => [r.team_id, r.organization_id])).toEqual([
      [teams[0]?.id, organization.id],
      [teams[1]?.id, organization.id],
    ]);
    const crossings = events.flatMap((e) => budgetCrossings(e));
    expect(crossings.map((c) => [c.subject, c.id, c.threshold, c.organization_id])).toEqual([
      ['organization', organization.id, 0.8, organization.id],
      ['organization', organization.id, 1, organization.id],
    ]);
    await expect(accounts.admit(principals[0] as never, 'gpt-4o', 1)).rejects.toMatchObject({
      status: 429,
      code: 'insufficient_quota',
      message: expect.stringMatching(/^This organization's budget of 1 USD per day is spent/),
    });
  });

  it('refuses an unknown organization_id (404) and deleting an organization that still has teams (409)', async () => {
    const { accounts, organization, teams } = await hierarchy({ name: 'acme' });
    await expect(accounts.teams.create({ name: 'c', organization_id: 'org_missing' })).rejects.toMatchObject({
      status: 404,
      code: 'organization_not_found',
      param: 'organization_id',
    });
    await expect(accounts.teams.update(teams[0]?.id as string, { organization_id: 'org_x' })).rejects.toMatchObject({
      status: 404,
    });
    await expect(accounts.deleteOrganization(organization.id)).rejects.toMatchObject({
      status: 409,
      code: 'organization_has_teams',
    });
    for (const team of teams) await accounts.teams.update(team.id, { organization_id: null });
    expect(await accounts.deleteOrganization(organization.id)).toMatchObject({ id: organization.id });
    expect(accounts.organizations.list()).toEqual([]);
  });
});
