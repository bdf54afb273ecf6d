import { type MockUpstream, sseFrames, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// Mid-stream failover (issue #18): a stream that breaks after content reached the client continues on the next target.
const KEY = 'sk-switchyard-failover-0123456789';
const MASTER = 'sk-switchyard-failover-master-0123456789';
const CHAT = 'POST /v1/chat/completions';
const MESSAGES = 'POST /v1/messages';
const fixtures = testkitFixtures();
type Chunk = {
  choices: { delta?: { content?: string; tool_calls?: unknown[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
};
/** The first 100 chunks of a recorded OpenAI stream (no finish_reason among them): the primary breaks after 30. */
const recorded = fixtures.chunkLines('openai/openai-text.chunks.txt');
const first100 = recorded.slice(0, 100);
const contentOf = (lines: readonly string[]) =>
  lines.map((l) => (JSON.parse(l) as Chunk).choices[0]?.delta?.content ?? '').join('');
const deliveredText = contentOf(first100.slice(0, 30));
/** The secondary's continuation: the whole recorded stream (finish_reason, usage chunk, [DONE]). */
const continuationText = contentOf(recorded);
const continuationUsage = (JSON.parse(recorded.at(-1)!) as Chunk).usage!;
const anthropicText = fixtures
  .chunkLines('anthropic/anthropic-text.chunks.txt')
  .map((l) => JSON.parse(l) as { type: string; delta?: { type: string; text?: string } })
  .filter((e) => e.type === 'content_block_delta' && e.delta?.type === 'text_delta')
  .map((e) => e.delta!.text)
  .join('');
/** A recorded xAI stream up to its tool-call delta (before its finish_reason): a tool call is in flight when it breaks. */
const toolLines = fixtures.chunkLines('openai-compatible/xai-tool-call.chunks.txt').slice(0, -1);

let primary: MockUpstream;
let backup: MockUpstream;
let claude: MockUpstream;
let running: RunningServer;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      primary: { routes: { [CHAT]: { chunks: sseFrames(first100), chunkDelayMs: 1, resetAfterChunks: 30 } } },
      backup: { routes: { [CHAT]: { chunks: sseFrames(recorded) } } },
      claude: {
        routes: {
          [MESSAGES]: { chunks: sseFrames(fixtures.chunkLines('anthropic/anthropic-text.chunks.txt'), 'typed') },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  primary: { adapter: openai, api_key: sk-primary-000000, base_url: "${url.primary}/v1" }
  backup: { adapter: openai, api_key: sk-backup-000000, base_url: "${url.backup}/v1" }
  claude: { adapter: anthropic, api_key: sk-ant-000000, base_url: "${url.claude}/v1" }
models:
  - id: chat
    targets: [{ provider: primary, upstream: gpt-4.1-nano }]
    fallbacks: [chat-backup]
    stream_failover: true
    timeouts: { idle_ms: 300 }
    price: { input: 1, output: 2 }
  - { id: chat-backup, provider: backup, upstream: gpt-4.1-nano, price: { input: 1, output: 2 } }
  - { id: to-claude, provider: primary, upstream: gpt-4.1-nano, fallbacks: [claude], stream_failover: true }
  - { id: claude, provider: claude, upstream: claude-sonnet-4-5 }
  - { id: plain, provider: primary, upstream: gpt-4.1-nano, fallbacks: [chat-backup] }
routing: { max_retries: 0, cooldown: { failures: 1000, seconds: 1 } }
log: { level: silent }
`,
    clientTimeoutMs: 10_000,
    clearBetweenTests: true,
  },
  (gateway) =>
    ({
      upstreams: { primary, backup, claude },
      running,
      openai: client,
    } = gateway),
);

const messages = [{ role: 'user' as const, content: 'Invent a holiday.' }];

async function collect(model: string, includeUsage = false) {
  const stream = await client.chat.completions.create({
    model,
    stream: true,
    messages,
    ...(includeUsage && { stream_options: { include_usage: true } }),
  });
  const chunks: (Chunk & { switchyard?: unknown })[] = [];
  for await (const chunk of stream) chunks.push(chunk as never);
  const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
  const finishReasons = chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason).filter(Boolean));
  return { chunks, text, finishReasons };
}

async function admin(path: string) {
  const res = await fetch(`${running.url.replace(/\/v1$/, '')}/admin${path}`, {
    headers: { authorization: `Bearer ${MASTER}` },
  });
  return (await res.json()) as { data: Record<string, unknown>[] };
}

/** `switchyard_upstream_attempts_total` of `provider` with `outcome`, scraped over HTTP (0 when absent). */
async function attemptsCounted(provider: string, outcome: string): Promise<number> {
  const text = await (await fetch(`${running.url.replace(/\/v1$/, '')}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('switchyard_upstream_attempts_total{')) continue;
    if (line.includes(`provider="${provider}"`) && line.includes(`outcome="${outcome}"`))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** The attempt counters of the primary and backup deployments, by outcome. */
async function attemptCounters() {
  const counts: Record<string, number> = {};
  for (const provider of ['primary', 'backup']) {
    for (const outcome of ['ok', 'fallback', 'error'])
      counts[`${provider} ${outcome}`] = await attemptsCounted(provider, outcome);
  }
  return counts;
}

describe('mid-stream failover', () => {
  it('metrics: the attempt that broke mid-stream counts as fallback, not ok; the continuation counts ok', async () => {
    const before = await attemptCounters();
    const { text, finishReasons } = await collect('chat');
    expect(text).toBe(deliveredText + continuationText);
    expect(finishReasons).toEqual(['stop']);
    const delta = async () => {
      const after = await attemptCounters();
      return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k]!]));
    };
    await expect.poll(delta).toEqual({
      'primary ok': 0,
      'primary fallback': 1,
      'primary error': 0,
      'backup ok': 1,
      'backup fallback': 0,
      'backup error': 0,
    });
  });

  it('metrics: without stream_failover the broken attempt counts as error, not ok', async () => {
    const before = await attemptCounters();
    const stream = await client.chat.completions.create({ model: 'plain', stream: true, messages });
    const error = await (async () => {
      for await (const _chunk of stream);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const delta = async () => {
      const after = await attemptCounters();
      return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k]!]));
    };
    await expect.poll(delta).toEqual({
      'primary ok': 0,
      'primary fallback': 0,
      'primary error': 1,
      'backup ok': 0,
      'backup fallback': 0,
      'backup error': 0,
    });
  });

  it('metrics: a stream that completes counts ok once', async () => {
    const before = await attemptCounters();
    primary.route(CHAT, { chunks: sseFrames(recorded) });
    try {
      const { text } = await collect('chat');
      expect(text).toBe(continuationText);
    } finally {
      primary.route(CHAT, { chunks: sseFrames(first100), chunkDelayMs: 1, resetAfterChunks: 30 });
    }
    await expect.poll(async () => (await attemptCounters())['primary ok']! - before['primary ok']!).toBe(1);
    const after = await attemptCounters();
    expect(
      after['primary fallback']! - before['primary fallback']! + after['primary error']! - before['primary error']!,
    ).toBe(0);
  });

  it("reset after 30 of 100 chunks: the text is the first 30 chunks plus the secondary's continuation, exactly once", async () => {
    const { chunks, text, finishReasons } = await collect('chat', true);
    expect(deliveredText.length).toBeGreaterThan(20);
    expect(text).toBe(deliveredText + continuationText);
    expect(finishReasons).toEqual(['stop']);
    // The continuation request: the same conversation, the delivered text as an assistant message, the instruction.
    const sent = backup.requestsTo(CHAT)[0]!.json as { messages: { role: string; content: string }[]; stream: boolean };
    expect(sent.stream).toBe(true);
    expect(sent.messages.slice(0, 2)).toEqual([messages[0], { role: 'assistant', content: deliveredText }]);
    expect(sent.messages[2]).toMatchObject({ role: 'user', content: expect.stringContaining('Continue') });
    // One usage chunk, last: both attempts summed (the broken one estimated), marked as a failover.
    const usage = chunks.filter((c) => c.usage);
    expect(usage).toHaveLength(1);
    expect(chunks.at(-1)).toBe(usage[0]);
    const estimatedCompletion = Math.ceil(deliveredText.length / 4);
    expect(usage[0]!.usage).toMatchObject({
      completion_tokens: continuationUsage.completion_tokens + estimatedCompletion,
      // The broken attempt's prompt: the continuation's minus the delivered text (which the continuation's prompt holds).
      prompt_tokens:
        continuationUsage.prompt_tokens + Math.max(0, continuationUsage.prompt_tokens - estimatedCompletion),
    });
    expect(usage[0]!.switchyard).toEqual({ stream_failover: true, failovers: 1, usage_estimated: true });
    // The ledger row says so too, with both attempts.
    await expect
      .poll(async () => (await admin('/requests?limit=1')).data[0])
      .toMatchObject({
        model: 'chat',
        status: 200,
        stream: true,
        attempts: 2,
        stream_failover: true,
        provider: 'backup',
      });
  });

  it('a stall past idle_ms mid-stream also continues on the next target', async () => {
    // 30 chunks in one burst, then a pause longer than idle_ms before the rest.
    const frames = sseFrames(first100);
    primary.route(CHAT, { chunks: [frames.slice(0, 30).join(''), ...frames.slice(30)], chunkDelayMs: 2_000 });
    const { text, finishReasons } = await collect('chat');
    expect(text).toBe(deliveredText + continuationText);
    expect(finishReasons).toEqual(['stop']);
    await expect.poll(() => primary.requestsTo(CHAT)[0]?.closedByClient).toBe(true);
    primary.route(CHAT, { chunks: sseFrames(first100), chunkDelayMs: 1, resetAfterChunks: 30 });
  });

  it('an error event mid-stream also continues on the next target', async () => {
    const error =
      'data: {"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}\n\n';
    primary.route(CHAT, { chunks: [...sseFrames(first100).slice(0, 30), error] });
    const { text, finishReasons } = await collect('chat');
    expect(text).toBe(deliveredText + continuationText);
    expect(finishReasons).toEqual(['stop']);
    primary.route(CHAT, { chunks: sseFrames(first100), chunkDelayMs: 1, resetAfterChunks: 30 });
  });

  it('Anthropic continues the delivered text as an assistant prefill', async () => {
    const { text, finishReasons } = await collect('to-claude');
    expect(text).toBe(deliveredText + anthropicText);
    expect(finishReasons).toHaveLength(1);
    const sent = claude.requestsTo(MESSAGES)[0]!.json as { messages: { role: string; content: unknown }[] };
    expect(sent.messages).toHaveLength(2);
    expect(sent.messages[1]!.role).toBe('assistant');
    expect(JSON.stringify(sent.messages[1]!.content)).toContain(JSON.stringify(deliveredText.trimEnd()).slice(1, -1));
  });

  it('tool-call deltas in flight: no failover, the stream ends with an error event', async () => {
    primary.route(CHAT, { chunks: sseFrames(toolLines), resetAfterChunks: toolLines.length });
    const stream = await client.chat.completions.create({
      model: 'chat',
      stream: true,
      messages,
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }],
    });
    const error = await (async () => {
      for await (const _chunk of stream);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(backup.requestsTo(CHAT)).toHaveLength(0);
    primary.route(CHAT, { chunks: sseFrames(first100), chunkDelayMs: 1, resetAfterChunks: 30 });
  });

  it('without stream_failover the broken stream ends with an error event, as before', async () => {
    const stream = await client.chat.completions.create({ model: 'plain', stream: true, messages });
    const error = await (async () => {
      for await (const _chunk of stream);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(backup.requestsTo(CHAT)).toHaveLength(0);
  });
});
