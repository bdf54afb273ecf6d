import type { AccountStore, UsageRow } from '@switchyard/accounts';
import { expect, it } from 'vitest';
import { uniqueName, usageRow } from './account-store-samples.js';

/** How the usage cases open stores (see `AccountStoreFactory`). */
interface StoreOpener {
  open(name: string): Promise<AccountStore>;
}

/**
 * The usage-ledger cases of the AccountStore suite, registered inside its `describe`: rows keep their team, end user,
 * operation, session and agents; totals grouped by key, model, UTC day, team, end user, session and agent with
 * filters; spend since a time; large batches; ledger rows newest first, filtered and paged by a cursor.
 */
export function usageLedgerCases(factory: StoreOpener): void {
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
}
