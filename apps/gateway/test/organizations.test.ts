import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_USD,
  chatCalls,
  expectBudgetSpentByThreeCalls,
  startLimitGroupsGateway,
  usageGroups,
} from './helpers/limit-groups-gateway.js';
import type { AccountsGateway } from './security/accounts-gateway.js';

// Organisations above teams over real HTTP on one gateway process (SQLite, the in-process limiter): the admin API
// with audit rows, allow-lists that narrow from organisation to team to key, the organisation's rpm and budget
// shared by every key of its teams, and usage by organisation. (Across replicas on Redis and Postgres:
// teams-replicas.test.ts.)
type ApiError = InstanceType<typeof OpenAI.APIError>;

let gw: AccountsGateway;
beforeAll(async () => {
  gw = await startLimitGroupsGateway();
});
afterAll(() => gw?.close());

const calls = chatCalls(() => gw);
const { ask, outcome } = calls;

/** An organisation (`org` its fields) with two teams of one key each. */
async function hierarchy(org: Record<string, unknown>, team: Record<string, unknown> = {}) {
  const id = (await gw.admin('POST', '/organizations', { name: 'acme', ...org })).body.id as string;
  const teams = [
    (await gw.admin('POST', '/teams', { name: 't1', organization_id: id, ...team })).body.id as string,
    (await gw.admin('POST', '/teams', { name: 't2', organization_id: id, ...team })).body.id as string,
  ];
  const keys = [
    await gw.createKey({ name: 'k1', team_id: teams[0] }),
    await gw.createKey({ name: 'k2', team_id: teams[1] }),
  ];
  return { id, teams, keys };
}

describe('/admin/organizations', () => {
  it('creates, lists (with spend), gets, changes and deletes an organization, each change in the audit log', async () => {
    const created = await gw.admin('POST', '/organizations', {
      name: 'acme',
      models: ['gpt-4o*'],
      rpm_limit: 1000,
      budget_usd: 500,
      budget_period: 'month',
      metadata: { region: 'eu' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^org_[0-9a-f]{32}$/),
      name: 'acme',
      models: ['gpt-4o*'],
      rpm_limit: 1000,
      tpm_limit: null,
      concurrency_limit: null,
      budget_usd: 500,
      budget_period: 'month',
      end_user_budget_usd: null,
      metadata: { region: 'eu' },
    });
    expect((await gw.admin('GET', '/organizations')).body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, name: 'acme', spend_usd: 0 })]),
    );
    expect((await gw.admin('GET', `/organizations/${id}`)).body).toMatchObject({ id, spend_usd: 0 });
    const patched = await gw.admin('PATCH', `/organizations/${id}`, { rpm_limit: null, tpm_limit: 100_000 });
    expect(patched.body).toMatchObject({ id, rpm_limit: null, tpm_limit: 100_000, budget_usd: 500 });
    expect(await gw.admin('GET', '/organizations/org_nope')).toMatchObject({
      status: 404,
      body: { error: { code: 'organization_not_found' } },
    });
    expect((await gw.admin('PATCH', '/organizations/org_nope', { name: 'x' })).status).toBe(404);
    expect((await gw.admin('POST', '/organizations', { name: 'x', budget_period: 'year' })).status).toBe(400);
    expect((await gw.admin('POST', '/organizations', { name: 'x', owner: 'me' })).status).toBe(400);
    // A team may name only an organization that exists; an organization with teams cannot be deleted.
    expect(await gw.admin('POST', '/teams', { name: 't', organization_id: 'org_nope' })).toMatchObject({
      status: 404,
      body: { error: { code: 'organization_not_found', param: 'organization_id' } },
    });
    const team = await gw.admin('POST', '/teams', { name: 't', organization_id: id });
    expect(team.body).toMatchObject({ organization_id: id });
    expect(await gw.admin('DELETE', `/organizations/${id}`)).toMatchObject({
      status: 409,
      body: { error: { code: 'organization_has_teams' } },
    });
    expect((await gw.admin('PATCH', `/teams/${team.body.id}`, { organization_id: null })).body).toMatchObject({
      organization_id: null,
    });
    expect(await gw.admin('DELETE', `/organizations/${id}`)).toMatchObject({
      status: 200,
      body: { id, deleted: true },
    });
    expect((await gw.admin('GET', `/organizations/${id}`)).status).toBe(404);
    const audit = (await gw.admin('GET', `/audit?target=${id}`)).body.data as Record<string, unknown>[];
    expect(audit.map((e) => [e.action, e.actor])).toEqual([
      ['organization.delete', 'master_key'],
      ['organization.update', 'master_key'],
      ['organization.create', 'master_key'],
    ]);
    expect(audit[1]).toMatchObject({ before: { rpm_limit: 1000 }, after: { rpm_limit: null, tpm_limit: 100_000 } });
    expect(audit[0]).toMatchObject({ before: { id, name: 'acme' }, after: null });
  });
});

describe('a call is admitted only when the key, its team and its organization all admit it', () => {
  it('models narrow from organization to team to key, never widen', async () => {
    const { keys, teams } = await hierarchy({ models: ['gpt-4o*'] }, { models: ['gpt-4o', 'o1'] });
    const [k1] = keys;
    expect(await outcome(k1?.key as string, 'gpt-4o')).toBe(200);
    // The team allows o1, its organization does not; the organization allows gpt-4o-mini, the team does not.
    expect(await outcome(k1?.key as string, 'o1')).toBe('403 model_not_allowed');
    expect(await outcome(k1?.key as string, 'gpt-4o-mini')).toBe('403 model_not_allowed');
    await gw.admin('PATCH', `/teams/${teams[0]}`, { models: null });
    expect(await outcome(k1?.key as string, 'gpt-4o-mini')).toBe(200);
    expect(await outcome(k1?.key as string, 'o1')).toBe('403 model_not_allowed');
  });

  it("the organization's rpm is shared by its teams' keys: 4 of 12 calls, the refusals naming the organization", async () => {
    const { keys } = await hierarchy({ rpm_limit: 4 });
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => ask(keys[i % 2]?.key as string)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    const refused = results.find((r) => r.status === 'rejected')?.reason as ApiError;
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect(refused.message).toBe("429 Rate limit reached for this organization's requests: 4 per minute.");
  });

  it("the organization's budget: its teams' keys stop together once it is spent; usage by organization", async () => {
    const { id, teams, keys } = await hierarchy({ budget_usd: 2.5 * CALL_USD, budget_period: 'day' });
    const [a, b] = keys.map((k) => k.key);
    await expectBudgetSpentByThreeCalls(calls, [a as string, b as string], 'organization');
    const byOrg = await usageGroups(gw, `group_by=organization&organization=${id}`);
    // Three calls served, the refusal booked at no cost.
    expect(byOrg).toEqual([expect.objectContaining({ group: id, requests: 4 })]);
    expect(byOrg[0]?.cost_usd).toBeCloseTo(3 * CALL_USD, 9);
    const byTeam = await usageGroups(gw, `group_by=team&organization=${id}`);
    expect(byTeam.map((g) => g.group).sort()).toEqual([...teams].sort());
    expect((await gw.admin('GET', `/organizations/${id}`)).body.spend_usd).toBeCloseTo(3 * CALL_USD, 9);
  });
});
