import { type MockUpstream, openaiReplayRoutes, sseFrames, testkitFixtures } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// Hedged requests (issue #18): a slow primary gets one parallel attempt on the next deployment after `hedge.after_ms`.
const KEY = 'sk-switchyard-hedge-0123456789';
const MASTER = 'sk-switchyard-hedge-master-0123456789';
const CHAT = 'POST /v1/chat/completions';
const completion = testkitFixtures().json<{ choices: { message: { content: string } }[] }>('openai/openai-text.json');
const lines = testkitFixtures().chunkLines('openai/openai-text.chunks.txt');
const streamText = lines
  .map((l) => (JSON.parse(l) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
  .join('');
const PRIMARY_DELAY_MS = 1_500;
const HEDGE_AFTER_MS = 100;

let primary: MockUpstream;
let backup: MockUpstream;
let running: RunningServer;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      primary: {},
      backup: { routes: openaiReplayRoutes() },
    },
    config: (url) => `
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  primary: { adapter: openai, api_key: sk-primary-000000, base_url: "${url.primary}/v1" }
  backup: { adapter: openai, api_key: sk-backup-000000, base_url: "${url.backup}/v1" }
models:
  - { id: hedged, provider: primary, upstream: gpt-4.1-nano, fallbacks: [direct], hedge: { after_ms: ${HEDGE_AFTER_MS} }, price: { input: 1, output: 2 } }
  - { id: direct, provider: backup, upstream: gpt-4.1-nano, price: { input: 1, output: 2 } }
routing: { max_retries: 0, cooldown: { failures: 1000, seconds: 1 } }
log: { level: silent }
`,
    clientTimeoutMs: 10_000,
    clearBetweenTests: true,
  },
  (gateway) =>
    ({
      upstreams: { primary, backup },
      running,
      openai: client,
    } = gateway),
);

const messages = [{ role: 'user' as const, content: 'hi' }];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(run: () => Promise<unknown>, times: number): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    durations.push(performance.now() - started);
  }
  return durations;
}

async function readStream(model: string) {
  const { data: stream, response } = await client.chat.completions
    .create({ model, stream: true, messages })
    .withResponse();
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  return { text, response };
}

describe('hedged requests', () => {
  it("slow primary, fast secondary: p50 latency near the secondary's, the loser aborted, one extra attempt per request", async () => {
    primary.route(CHAT, { delayMs: PRIMARY_DELAY_MS, json: completion });
    const baseline = median(await timed(() => client.chat.completions.create({ model: 'direct', messages }), 5));
    backup.clear();
    const answers: { content: string | null | undefined; provider: string | null; attempts: string | null }[] = [];
    const hedged = await timed(async () => {
      const { data, response } = await client.chat.completions.create({ model: 'hedged', messages }).withResponse();
      answers.push({
        content: data.choices[0]?.message.content,
        provider: response.headers.get('x-switchyard-provider'),
        attempts: response.headers.get('x-switchyard-attempts'),
      });
    }, 7);
    expect(answers).toEqual(
      Array(7).fill({ content: completion.choices[0]!.message.content, provider: 'backup', attempts: '2' }),
    );
    expect(median(hedged)).toBeLessThan(HEDGE_AFTER_MS + baseline + 250);
    expect(Math.max(...hedged)).toBeLessThan(PRIMARY_DELAY_MS);
    // At most one extra attempt per request, and every losing primary request was closed at once (no leaked connection).
    expect(primary.requestsTo(CHAT)).toHaveLength(7);
    expect(backup.requestsTo(CHAT)).toHaveLength(7);
    await expect.poll(() => primary.requestsTo(CHAT).every((r) => r.closedByClient)).toBe(true);
    await expect.poll(() => primary.openConnections).toBeLessThanOrEqual(1);
    // Both attempts are in the ledger row: the winner's reported usage plus the aborted loser's prompt estimate.
    const res = await fetch(`${running.url.replace(/\/v1$/, '')}/admin/requests?limit=1`, {
      headers: { authorization: `Bearer ${MASTER}` },
    });
    const [row] = ((await res.json()) as { data: Record<string, unknown>[] }).data;
    expect(row).toMatchObject({
      model: 'hedged',
      provider: 'backup',
      status: 200,
      attempts: 2,
      hedged: true,
      usage_estimated: true,
    });
    expect(row!.prompt_tokens).toBeGreaterThan(
      (completion as unknown as { usage: { prompt_tokens: number } }).usage.prompt_tokens,
    );
  });

  it("streamed: the secondary's stream is the answer, the stalled primary is aborted", async () => {
    primary.route(CHAT, { delayMs: PRIMARY_DELAY_MS, chunks: sseFrames(lines) });
    const hedged = await timed(async () => {
      const { text, response } = await readStream('hedged');
      expect(text).toBe(streamText);
      expect(response.headers.get('x-switchyard-provider')).toBe('backup');
    }, 5);
    expect(Math.max(...hedged)).toBeLessThan(PRIMARY_DELAY_MS);
    expect(primary.requestsTo(CHAT)).toHaveLength(5);
    expect(backup.requestsTo(CHAT)).toHaveLength(5);
    await expect.poll(() => primary.requestsTo(CHAT).every((r) => r.closedByClient)).toBe(true);
  });

  it('a primary that answers before the hedge delay gets no second attempt', async () => {
    primary.route(CHAT, { json: completion });
    const { response } = await client.chat.completions.create({ model: 'hedged', messages }).withResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('primary');
    expect(response.headers.get('x-switchyard-attempts')).toBe('1');
    expect(backup.requestsTo(CHAT)).toHaveLength(0);
  });

  it('the primary wins when the hedge is slower; the hedge is the one aborted', async () => {
    primary.route(CHAT, { delayMs: 300, json: completion });
    backup.route(CHAT, { delayMs: PRIMARY_DELAY_MS, json: completion });
    const { response } = await client.chat.completions.create({ model: 'hedged', messages }).withResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('primary');
    expect(backup.requestsTo(CHAT)).toHaveLength(1);
    await expect.poll(() => backup.requestsTo(CHAT)[0]?.closedByClient).toBe(true);
    backup.route(CHAT, openaiReplayRoutes()[CHAT]!);
  });

  it("a primary that fails while the hedge runs: the hedge's answer is used", async () => {
    primary.route(CHAT, {
      delayMs: 300,
      status: 500,
      json: { error: { message: 'boom', type: 'server_error', param: null, code: null } },
    });
    backup.route(CHAT, { delayMs: 400, json: completion });
    const { data, response } = await client.chat.completions.create({ model: 'hedged', messages }).withResponse();
    expect(data.choices[0]?.message.content).toBe(completion.choices[0]!.message.content);
    expect(response.headers.get('x-switchyard-provider')).toBe('backup');
    expect(response.headers.get('x-switchyard-attempts')).toBe('2');
    backup.route(CHAT, openaiReplayRoutes()[CHAT]!);
  });
});
