import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteAccountStore } from '@switchyard/store-sqlite';
import { type MockUpstream, sseFrames, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const KEY = 'sk-switchyard-shutdown-0123456789';
const lines = testkitFixtures().chunkLines('openai/openai-text.chunks.txt');
const recordedText = lines
  .map((l) => (JSON.parse(l) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
  .join('');

let upstream: MockUpstream | undefined;
let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await upstream?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts `switchyard start` in a child process in front of a mock upstream whose stream lasts about `streamMs`. */
async function startCli(streamMs: number, shutdownTimeoutMs: number) {
  const frames = sseFrames(lines);
  upstream = await startMockUpstream({
    routes: { 'POST /v1/chat/completions': { chunks: frames, chunkDelayMs: Math.round(streamMs / frames.length) } },
  });
  dir = await mkdtemp(join(tmpdir(), 'switchyard-shutdown-'));
  const config = join(dir, 'switchyard.yaml');
  await writeFile(
    config,
    `server: { port: 0, shutdown_timeout_ms: ${shutdownTimeoutMs} }
keys: ["${KEY}"]
store: { sqlite: ledger.db }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o-mini, provider: openai, upstream: gpt-4.1-nano, price: { input: 1, output: 2 } }
log: { level: warn, format: json }
`,
  );
  child = spawn(process.execPath, [cli, 'start', '--config', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  await expect.poll(() => /listening on (\S+)/.exec(stderr)?.[1], { timeout: 10_000 }).toBeDefined();
  const url = /listening on (\S+)/.exec(stderr)![1]!;
  return { url, origin: new URL(url).origin, ledger: join(dir, 'ledger.db'), stderr: () => stderr };
}

async function ledgerRows(path: string, groupBy?: 'status') {
  const store = new SqliteAccountStore(path);
  try {
    return await store.usageTotals({}, groupBy);
  } finally {
    await store.close();
  }
}

describe('graceful shutdown (SIGTERM)', () => {
  it('lets a 2-second stream finish, answers /readyz 503 at once, books the call and exits 0', async () => {
    const gateway = await startCli(2_000, 10_000);
    const probe = new Client(gateway.origin);
    expect((await probe.request({ path: '/readyz', method: 'GET' })).statusCode).toBe(200);
    const client = new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    let signalled = false;
    let readyAfterSignal: { statusCode: number; body: unknown } | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (!signalled) {
        signalled = true;
        child!.kill('SIGTERM');
        await expect.poll(() => gateway.stderr()).toContain('SIGTERM');
        const res = await probe.request({ path: '/readyz', method: 'GET' });
        readyAfterSignal = { statusCode: res.statusCode, body: await res.body.json() };
        // New connections are refused: the listening socket is closed.
        await expect(fetch(`${gateway.origin}/healthz`)).rejects.toThrow();
      }
    }
    expect(readyAfterSignal).toMatchObject({
      statusCode: 503,
      body: { status: 'not_ready', checks: { shutdown: { status: 'failing' } } },
    });
    expect(text).toBe(recordedText);
    const [code] = await once(child!, 'exit');
    expect(code).toBe(0);
    await probe.close().catch(() => {});
    const [totals] = await ledgerRows(gateway.ledger);
    expect(totals).toMatchObject({ requests: 1 });
    expect(totals!.prompt_tokens).toBeGreaterThan(0);
  });

  it('ends a stream longer than shutdown_timeout_ms with one error event, books it and exits 0', async () => {
    const gateway = await startCli(6_000, 300);
    const res = await fetch(`${gateway.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let body = new TextDecoder().decode((await reader.read()).value);
    const started = Date.now();
    child!.kill('SIGTERM');
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      body += new TextDecoder().decode(value);
    }
    expect(Date.now() - started).toBeLessThan(4_000);
    const events = body.split('\n\n').filter((e) => e.startsWith('data: '));
    expect(events.at(-1)).toContain('"code":"server_shutting_down"');
    expect(events.filter((e) => e.includes('"error"'))).toHaveLength(1);
    expect(body).not.toContain('[DONE]');
    const [code] = await once(child!, 'exit');
    expect(code).toBe(0);
    expect(gateway.stderr()).toContain('1 request(s) still running');
    // Booked as what the client was sent (503 server_shutting_down), not as a client that left (499; issue #38).
    const rows = await ledgerRows(gateway.ledger, 'status');
    expect(rows).toMatchObject([{ group: '503', requests: 1 }]);
  });
});
