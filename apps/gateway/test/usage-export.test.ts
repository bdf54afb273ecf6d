import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UsageRow } from '@switchyard/accounts';
import { SqliteAccountStore } from '@switchyard/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayWithUpstreams, startGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// GET /admin/usage/export over real HTTP: 100,000 ledger rows streamed as CSV and as JSON lines, filterable, with the
// gateway's heap staying flat while the client reads them (the rows are read from the store in pages of 1,000).
const MASTER = 'sk-master-key-for-usage-export-01234';
const ROWS = 100_000;
const T0 = Date.UTC(2026, 10, 1);
const dir = mkdtempSync(join(tmpdir(), 'switchyard-export-'));
let gw: GatewayWithUpstreams<'openai'>;

const row = (i: number): UsageRow => ({
  request_id: `req-${String(i).padStart(6, '0')}`,
  key_id: i % 2 ? 'key_a' : 'key_b',
  team_id: i % 2 ? 'team_x' : null,
  end_user: i % 10 === 0 ? `=cmd|' /C calc'!A0 user ${i % 100}` : `user-${i % 100}`,
  session_id: i % 3 === 0 ? `sess-${i % 7}` : null,
  model: 'gpt-4o',
  provider: 'openai',
  upstream_model: 'gpt-4o-2024-08-06',
  prompt_tokens: 100,
  completion_tokens: 20,
  cost_usd: 0.00045,
  latency_ms: 120,
  ttfb_ms: 30,
  status: 200,
  stream: false,
  created_at: T0 + i * 1_000,
});

beforeAll(async () => {
  const store = new SqliteAccountStore(join(dir, 'ledger.db'));
  for (let start = 0; start < ROWS; start += 10_000)
    await store.appendUsage(Array.from({ length: 10_000 }, (_, i) => row(start + i)));
  await store.close();
  gw = await startGatewayWithUpstreams({
    upstreams: { openai: { routes: {} } },
    config: (url) => `
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'ledger.db')}" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${url.openai}/v1" }
models:
  - { id: gpt-4o, provider: openai }
`,
  });
}, 120_000);
afterAll(async () => {
  await gw?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Reads an export line by line without keeping it, sampling this process's heap (the gateway's) meanwhile. */
async function download(query: string) {
  const res = await fetch(`${gw.origin}/admin/usage/export?${query}`, {
    headers: { authorization: `Bearer ${MASTER}` },
  });
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  let lines = 0;
  let bytes = 0;
  let first = '';
  let partial = '';
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    const text = partial + decoder.decode(chunk, { stream: true });
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    if (!first && parts.length > 0) first = parts[0] as string;
    lines += parts.length;
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  clearInterval(sample);
  return { res, lines, bytes, first, growthMb: (peak - baseline) / 2 ** 20 };
}

describe('GET /admin/usage/export', () => {
  it('streams 100,000 rows as CSV with the heap flat, a header and formula-safe cells', async () => {
    const { res, lines, bytes, first, growthMb } = await download('format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(lines).toBe(ROWS + 1);
    expect(first).toBe(
      'created_at,request_id,key_id,team_id,organization_id,end_user,session_id,agent_id,model,provider,upstream_model,status,prompt_tokens,completion_tokens,total_tokens,cost_usd\r',
    );
    console.log(
      `usage export: ${ROWS} rows, ${(bytes / 2 ** 20).toFixed(1)} MiB of CSV, heap growth at most ${growthMb.toFixed(1)} MiB`,
    );
    // Holding the rows would take far more (100,000 row objects); streamed pages of 1,000 keep it to a few MiB.
    expect(growthMb).toBeLessThan(40);
  });

  it('filters by team, end user, session and time, as JSON lines; a client-sent formula is neutralised in CSV', async () => {
    const team = await download('format=jsonl&team=team_x');
    expect(team.lines).toBe(ROWS / 2);
    expect(JSON.parse(team.first)).toMatchObject({
      request_id: 'req-099999',
      key_id: 'key_a',
      team_id: 'team_x',
      end_user: 'user-99',
      total_tokens: 120,
      cost_usd: 0.00045,
    });
    expect((await download('format=jsonl&end_user=user-7')).lines).toBe(ROWS / 100);
    expect((await download('format=jsonl&session=sess-3&team=team_x')).lines).toBe(
      Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 2 && i % 3 === 0 && i % 7 === 3).length,
    );
    const window = await download(`format=csv&from=${T0 + 10_000}&to=${new Date(T0 + 20_000).toISOString()}`);
    expect(window.lines).toBe(11);
    const formula = await download(`format=csv&end_user=${encodeURIComponent("=cmd|' /C calc'!A0 user 0")}`);
    expect(formula.lines).toBe(1 + ROWS / 100);
    const res = await fetch(
      `${gw.origin}/admin/usage/export?format=csv&end_user=${encodeURIComponent("=cmd|' /C calc'!A0 user 0")}&to=${T0 + 1}`,
      { headers: { authorization: `Bearer ${MASTER}` } },
    );
    expect((await res.text()).split('\r\n')[1]).toContain(",'=cmd|' /C calc'!A0 user 0,");
    const bad = await fetch(`${gw.origin}/admin/usage/export?format=xml`, {
      headers: { authorization: `Bearer ${MASTER}` },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('format');
  });
});
