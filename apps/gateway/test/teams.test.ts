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

// Teams over real HTTP on one gateway process (SQLite, the in-process limiter): the admin API, allow-lists that narrow,
// limits shared by a team's keys, the team's budget, usage by team, and budgets that count spend only from when
// they were set. (Across replicas on Redis and Postgres: teams-replicas.test.ts.)
type ApiError = InstanceType<typeof OpenAI.APIError>;

let gw: AccountsGateway;
beforeAll(async () => {
  gw = await startLimitGroupsGateway();
});
afterAll(() => gw?.close());

const calls = chatCalls(() => gw);
const { ask, outcome } = calls;

describe('/admin/teams', () => {
  it('creates, lists (with spend), gets, changes and deletes a team; 404 for unknown ids, 400 naming a bad field', async () => {
    const created = await gw.admin('POST', '/teams', {
      name: 'research',
      models: ['gpt-4o*'],
      rpm_limit: 100,
      budget_usd: 50,
      budget_period: 'month',
      metadata: { cost_center: 'r1' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^team_[0-9a-f]{32}$/),
      name: 'research',
      models: ['gpt-4o*'],
      rpm_limit: 100,
      tpm_limit: null,
      concurrency_limit: null,
      budget_usd: 50,
      budget_period: 'month',
      session_budget_usd: null,
      metadata: { cost_center: 'r1' },
    });
    expect((await gw.admin('GET', '/teams')).body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, name: 'research', spend_usd: 0 })]),
    );
    expect((await gw.admin('GET', `/teams/${id}`)).body).toMatchObject({ id, spend_usd: 0 });
    const patched = await gw.admin('PATCH', `/teams/${id}`, {
      rpm_limit: null,
      tpm_limit: 10_000,
      session_budget_usd: 2,
    });
    expect(patched.body).toMatchObject({
      id,
      rpm_limit: null,
      tpm_limit: 10_000,
      session_budget_usd: 2,
      budget_usd: 50,
    });
    expect(await gw.admin('GET', '/teams/team_nope')).toMatchObject({
      status: 404,
      body: { error: { code: 'team_not_found' } },
    });
    expect(await gw.admin('PATCH', '/teams/team_nope', { name: 'x' })).toMatchObject({ status: 404 });
    const bad = await gw.admin('POST', '/teams', { name: 'x', budget_period: 'year' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('budget_period');
    expect((await gw.admin('POST', '/teams', { name: 'x', owner: 'me' })).status).toBe(400);
    // A key may name only a team that exists; a team with active keys cannot be deleted.
    expect(await gw.admin('POST', '/keys', { name: 'k', team_id: 'team_nope' })).toMatchObject({
      status: 404,
      body: { error: { code: 'team_not_found', param: 'team_id' } },
    });
    const member = await gw.createKey({ name: 'member', team_id: id });
    expect((await gw.admin('GET', `/keys/${member.id}`)).body).toMatchObject({ team_id: id });
    expect(await gw.admin('DELETE', `/teams/${id}`)).toMatchObject({
      status: 409,
      body: { error: { code: 'team_has_keys' } },
    });
    await gw.admin('DELETE', `/keys/${member.id}`);
    expect(await gw.admin('DELETE', `/teams/${id}`)).toMatchObject({ status: 200, body: { id, deleted: true } });
    expect((await gw.admin('GET', `/teams/${id}`)).status).toBe(404);
  });
});

describe('a call is admitted only when the key and its team both admit it', () => {
  it("a key's models narrow its team's, never widen them", async () => {
    const team = (await gw.admin('POST', '/teams', { name: 'narrow', models: ['gpt-4o*'] })).body.id as string;
    const wide = await gw.createKey({ name: 'wants o1', team_id: team, models: ['gpt-4o', 'o1'] });
    expect(await outcome(wide.key, 'gpt-4o')).toBe(200);
    expect(await outcome(wide.key, 'o1')).toBe('403 model_not_allowed');
    expect(await outcome(wide.key, 'gpt-4o-mini')).toBe('403 model_not_allowed');
    const open = await gw.createKey({ name: 'no list' });
    expect(await outcome(open.key, 'o1')).toBe(200);
    await gw.admin('PATCH', `/keys/${open.id}`, { team_id: team });
    expect(await outcome(open.key, 'o1')).toBe('403 model_not_allowed');
    expect(await outcome(open.key, 'gpt-4o-mini')).toBe(200);
  });

  it("the team's rpm is shared by its keys: 3 of 8 calls over two keys, the refusals naming the team", async () => {
    const team = (await gw.admin('POST', '/teams', { name: 'rpm', rpm_limit: 3 })).body.id as string;
    const a = await gw.createKey({ name: 'a', team_id: team, rpm_limit: 100 });
    const b = await gw.createKey({ name: 'b', team_id: team });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => ask(i % 2 ? a.key : b.key)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.find((r) => r.status === 'rejected')?.reason as ApiError;
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect(refused.message).toBe("429 Rate limit reached for this team's requests: 3 per minute.");
    // The key's own headers still describe the key's own limit.
    expect(refused.headers?.get('x-ratelimit-limit-requests')).toBe('100');
  });

  it("the team's budget: its keys stop together once it is spent; usage by team", async () => {
    const team = (
      await gw.admin('POST', '/teams', { name: 'budget', budget_usd: 2.5 * CALL_USD, budget_period: 'day' })
    ).body.id as string;
    const a = await gw.createKey({ name: 'a', team_id: team });
    const b = await gw.createKey({ name: 'b', team_id: team, budget_usd: 1 });
    await expectBudgetSpentByThreeCalls(calls, [a.key, b.key], 'team');
    expect(await outcome(a.key)).toBe('429 insufficient_quota');
    const byTeam = await usageGroups(gw, `group_by=team&team=${team}`);
    expect(byTeam).toHaveLength(1);
    expect(byTeam[0]).toMatchObject({ group: team, requests: 5 });
    expect(byTeam[0]!.cost_usd).toBeCloseTo(3 * CALL_USD, 9);
    expect((await gw.admin('GET', `/teams/${team}`)).body.spend_usd as number).toBeCloseTo(3 * CALL_USD, 9);
    // Raising the team's budget lets both keys go on (same period: the spend so far still counts).
    await gw.admin('PATCH', `/teams/${team}`, { budget_usd: 3.5 * CALL_USD });
    expect(await outcome(b.key)).toBe(200);
    expect(await outcome(a.key)).toBe('429 insufficient_quota');
  });
});
