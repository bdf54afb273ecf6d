import { type MockUpstream, sseFrames, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

// Attack (issue #22): with accounts on, a streamed chat whose prompt holds `<|endoftext|>`, cut by the client before
// the upstream reported usage. The ledger write then tokenized the prompt, gpt-tokenizer threw on the special token,
// and the unhandled rejection ended the process (vitest reports such a rejection as a failed run).
const MASTER = 'sk-master-key-special-0123456789';
const lines = testkitFixtures()
  .chunkLines('openai/openai-text.chunks.txt')
  .filter((l) => !l.includes('"usage":{'));

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;
let finish!: () => void;
const finished = new Promise<void>((resolve) => (finish = resolve));

beforeAll(async () => {
  // The stream never ends on its own (every chunk after the first waits for the end of the file): the client has to
  // cut it, before any usage arrives.
  upstream = await startMockUpstream({
    routes: {
      'POST /v1/chat/completions': {
        chunks: sseFrames(lines),
        beforeChunk: (index) => (index > 0 ? finished : undefined),
      },
    },
  });
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai, price: { input: 2, output: 8 } }
`);
  origin = running.url.replace(/\/v1$/, '');
});
afterAll(async () => {
  finish();
  await running?.close();
  await upstream?.close();
});

const admin = async (method: string, path: string, body?: unknown) =>
  (await fetch(`${origin}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json())) as Record<string, unknown>;

describe('security: special tokens in a prompt of an aborted stream', () => {
  it('keeps the gateway up and books the call with the special tokens counted as text', async () => {
    const key = await admin('POST', '/keys', { name: 'attacker' });
    const client = new OpenAI({ baseURL: running.url, apiKey: key.key as string, maxRetries: 0 });
    const prompt = 'Say hi <|endoftext|><|fim_prefix|><|endofprompt|> and stop.';
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: prompt }] },
      { signal: controller.signal },
    );
    for await (const _chunk of stream) {
      controller.abort();
      break;
    }
    await expect
      .poll(async () => ((await admin('GET', `/usage?key=${key.id}`)).data as { requests: number }[])[0], {
        timeout: 5_000,
      })
      .toMatchObject({ requests: 1 });
    const [usage] = (await admin('GET', `/usage?key=${key.id}`)).data as { prompt_tokens: number }[];
    expect(usage!.prompt_tokens).toBeGreaterThan(10);
    // Still serving.
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
  });
});
