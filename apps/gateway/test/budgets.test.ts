import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsGateway, completion, startAccountsGateway } from './security/accounts-gateway.js';

// Budget periods, end-user and session budgets over real HTTP on one gateway process (SQLite, in-process limiter).
type ApiError = InstanceType<typeof OpenAI.APIError>;

// 1,000 prompt + 1,000 completion tokens at 1 + 2 USD per million: 0.003 USD a call.
const CALL_USD = 0.003;

let gw: AccountsGateway;
beforeAll(async () => {
  gw = await startAccountsGateway(
    async () => ({ json: completion('gpt-4o', 1000, 1000) }),
    `models:
  - { id: gpt-4o, provider: openai, price: { input: 1, output: 2 } }
budgets: { timezone: Europe/Paris, session_header: x-session-id }
`,
  );
});
afterAll(() => gw?.close());

const ask = (key: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  gw
    .client(key)
    .chat.completions.create(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000, ...extra },
      { headers },
    );
const outcome = (key: string, extra?: Record<string, unknown>, headers?: Record<string, string>) =>
  ask(key, extra, headers).then(
    () => '200',
    (e: ApiError) => `${e.status} ${e.code}`,
  );
const messageOf = (key: string, extra?: Record<string, unknown>, headers?: Record<string, string>) =>
  ask(key, extra, headers).then(
    () => 'admitted',
    (e: ApiError) => e.message,
  );

describe('budget periods that behave', () => {
  it('a budget added to a key that has spent is not over at once, and refuses once its spend reaches it (>=)', async () => {
    const { id, key } = await gw.createKey({ name: 'spender' });
    for (let i = 0; i < 3; i++) expect(await outcome(key)).toBe('200');
    const patched = await gw.admin('PATCH', `/keys/${id}`, { budget_usd: 2 * CALL_USD, budget_period: 'day' });
    expect(patched.body).toMatchObject({
      budget_usd: 2 * CALL_USD,
      budget_period: 'day',
      budget_started_at: expect.any(String),
    });
    expect((await gw.admin('GET', '/keys')).body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, spend_usd: 0 })]),
    );
    expect(await outcome(key)).toBe('200');
    expect(await outcome(key)).toBe('200');
    // Spent 0.006 of 0.006: spent, exactly.
    expect(await messageOf(key)).toBe(
      `429 This key's budget of ${2 * CALL_USD} USD per day is spent (0.006 USD spent).`,
    );
  });

  it("a changed period starts a new window: the old period's spend does not carry over; raising the amount keeps it", async () => {
    const { id, key } = await gw.createKey({ name: 'total', budget_usd: CALL_USD });
    expect(await outcome(key)).toBe('200');
    expect(await outcome(key)).toBe('429 insufficient_quota');
    await gw.admin('PATCH', `/keys/${id}`, { budget_usd: 2 * CALL_USD });
    expect(await outcome(key)).toBe('200');
    expect(await outcome(key)).toBe('429 insufficient_quota');
    await gw.admin('PATCH', `/keys/${id}`, { budget_period: 'week' });
    expect(await outcome(key)).toBe('200');
  });

  it('a key without a budget is never refused for budget, however much it spends', async () => {
    const { key } = await gw.createKey({ name: 'free' });
    const results = await Promise.all(Array.from({ length: 10 }, () => outcome(key)));
    expect(results).toEqual(Array(10).fill('200'));
  });
});

describe('end-user budgets', () => {
  it('each end user of a key (user, safety_identifier) has its own budget and rpm; usage by end user', async () => {
    const { id, key } = await gw.createKey({
      name: 'app',
      end_user_budget_usd: 1.5 * CALL_USD,
      end_user_budget_period: 'month',
      end_user_rpm_limit: 3,
    });
    expect(await outcome(key, { user: 'alice' })).toBe('200');
    expect(await outcome(key, { user: 'alice' })).toBe('200');
    expect(await messageOf(key, { user: 'alice' })).toBe(
      `429 This end user's budget of ${1.5 * CALL_USD} USD per month is spent (0.006 USD spent).`,
    );
    expect(await outcome(key, { safety_identifier: 'bob' })).toBe('200');
    // No end user named: no end-user limit applies.
    expect(await outcome(key)).toBe('200');
    expect(await outcome(key)).toBe('200');
    // Five at once from one end user: its rpm of 3 admits 3.
    const carol = await Promise.all(
      Array.from({ length: 5 }, () =>
        ask(key, { safety_identifier: 'carol', max_tokens: 1 }).then(
          () => 200,
          (e: ApiError) => e.code,
        ),
      ),
    );
    expect(carol.filter((s) => s === 200)).toHaveLength(3);
    expect(carol.filter((s) => s === 'rate_limit_exceeded')).toHaveLength(2);
    const byUser = (await gw.admin('GET', `/usage?key=${id}&group_by=end_user`)).body.data as {
      group: string;
      requests: number;
    }[];
    expect(byUser.map((g) => [g.group, g.requests])).toEqual([
      ['alice', 3],
      ['bob', 1],
      ['carol', 5],
    ]);
  });
});

describe('session budgets for agents', () => {
  it("a team's session budget stops one runaway session, by Claude Code's header, the configured header or prompt_cache_key", async () => {
    const team = (
      await gw.admin('POST', '/teams', { name: 'agents', session_budget_usd: 1.5 * CALL_USD, session_rpm_limit: 50 })
    ).body.id as string;
    const a = await gw.createKey({ name: 'dev a', team_id: team });
    const b = await gw.createKey({ name: 'dev b', team_id: team });
    const claude = { 'x-claude-code-session-id': 'sess-1' };
    expect(await outcome(a.key, {}, claude)).toBe('200');
    expect(await outcome(b.key, {}, claude)).toBe('200');
    expect(await messageOf(a.key, {}, claude)).toBe(
      `429 This session's budget of ${1.5 * CALL_USD} USD per session is spent (0.006 USD spent).`,
    );
    expect(await outcome(a.key, {}, { 'x-claude-code-session-id': 'sess-2' })).toBe('200');
    const configured = { 'x-session-id': 'sess-3' };
    expect(await outcome(a.key, {}, configured)).toBe('200');
    expect(await outcome(a.key, {}, configured)).toBe('200');
    expect(await outcome(a.key, {}, configured)).toBe('429 insufficient_quota');
    expect(await outcome(b.key, { prompt_cache_key: 'codex-conv-1' })).toBe('200');
    expect(await outcome(b.key, { prompt_cache_key: 'codex-conv-1' })).toBe('200');
    expect(await outcome(b.key, { prompt_cache_key: 'codex-conv-1' })).toBe('429 insufficient_quota');
    // The team itself has no budget: calls outside a session go on.
    expect(await outcome(b.key)).toBe('200');
    const bySession = (await gw.admin('GET', `/usage?team=${team}&group_by=session`)).body.data as {
      group: string;
      requests: number;
    }[];
    expect(bySession.map((g) => [g.group, g.requests])).toEqual([
      ['codex-conv-1', 3],
      ['sess-1', 3],
      ['sess-2', 1],
      ['sess-3', 3],
    ]);
  });
});
