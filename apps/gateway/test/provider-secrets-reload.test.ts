import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, sseFrames, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletion } from './helpers/chat-completion.js';
import { type SpawnedGateway, spawnGateway } from './helpers/spawn-gateway.js';

// Upstream provider keys read from a file (`api_key_file`) and re-read on SIGHUP by the running `switchyard start`
// process (issue #36): a stream in flight finishes on the old key, new calls use the new one.
const KEY = 'sk-switchyard-secrets-reload-0123456789';
const OLD = 'sk-upstream-old-key-1111111111';
const NEW = 'sk-upstream-new-key-2222222222';

const chunk = (content: string, finish: string | null = null) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });
const answer = chatCompletion('gpt-4o', 3, 1);

let dir: string;
let keyFile: string;
let upstream: MockUpstream;
let gateway: SpawnedGateway;
/** Resolves the held stream: the mock writes its second chunk only after the test calls it. */
let release: () => void = () => {};

const authorizations = () => upstream.requests.map((c) => c.headers.authorization);
const client = () => new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0, timeout: 20_000 });
const ask = () => client().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
const logged = (message: string) => gateway.logs.filter((line) => line.includes(message)).length;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-secrets-'));
  keyFile = join(dir, 'openai-key');
  await writeFile(keyFile, `${OLD}\n`, { mode: 0o600 });
  upstream = await startMockUpstream({
    routes: {
      'POST /v1/chat/completions': (request) => {
        if (!(request.json as { stream?: boolean }).stream) return { json: answer };
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        return {
          chunks: sseFrames([chunk('Hello'), chunk(' world', 'stop')]),
          beforeChunk: (index) => (index === 1 ? held : undefined),
        };
      },
    },
  });
  gateway = await spawnGateway(`
server: { host: 127.0.0.1, port: 0 }
keys: ["${KEY}"]
log: { level: info }
providers:
  openai: { adapter: openai, api_key_file: "${keyFile}", base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai }
routing: { max_retries: 0 }
`);
});
afterAll(async () => {
  await gateway?.stop();
  await upstream?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('provider keys re-read on SIGHUP', () => {
  it('a stream in flight finishes on the old key; calls after the SIGHUP use the new key', async () => {
    expect((await ask()).choices[0]?.message.content).toBe('ok');
    expect(authorizations()).toEqual([`Bearer ${OLD}`]);

    const stream = await client().chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'stream' }],
    });
    const reader = stream[Symbol.asyncIterator]();
    const first = await reader.next();
    expect(first.value?.choices[0]?.delta.content).toBe('Hello');

    await writeFile(keyFile, `${NEW}\n`);
    gateway.child.kill('SIGHUP');
    await expect.poll(() => logged('provider secrets re-read'), { timeout: 10_000, interval: 20 }).toBe(1);
    expect((await ask()).choices[0]?.message.content).toBe('ok');
    expect(authorizations()).toEqual([`Bearer ${OLD}`, `Bearer ${OLD}`, `Bearer ${NEW}`]);

    release();
    const rest: string[] = [];
    for (let next = await reader.next(); !next.done; next = await reader.next())
      rest.push(next.value.choices[0]?.delta.content ?? '');
    expect(rest.join('')).toBe(' world');
    expect(upstream.requests[1]?.closedByClient).toBe(false);
  });

  it('an unreadable or empty key file keeps the keys in use, and the log names the setting, never a key', async () => {
    await writeFile(keyFile, '\n');
    gateway.child.kill('SIGHUP');
    await expect.poll(() => logged('provider secrets not re-read'), { timeout: 10_000, interval: 20 }).toBe(1);
    const line = gateway.logs.find((l) => l.includes('provider secrets not re-read')) ?? '';
    expect(line).toContain('providers.openai.api_key_file');
    expect((await ask()).choices[0]?.message.content).toBe('ok');
    expect(authorizations().at(-1)).toBe(`Bearer ${NEW}`);

    await rm(keyFile);
    gateway.child.kill('SIGHUP');
    await expect.poll(() => logged('provider secrets not re-read'), { timeout: 10_000, interval: 20 }).toBe(2);
    expect(gateway.logs.at(-1)).toContain('ENOENT');
    expect((await ask()).choices[0]?.message.content).toBe('ok');
    expect(authorizations().at(-1)).toBe(`Bearer ${NEW}`);
    for (const line of gateway.logs) {
      expect(line).not.toContain(OLD);
      expect(line).not.toContain(NEW);
    }
  });
});
