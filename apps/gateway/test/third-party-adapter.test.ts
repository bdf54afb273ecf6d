import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockUpstream, createFixtureReader, sseFrames, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { createProviders } from '../src/providers/create-providers.js';
import { type RunningServer, startServer } from '../src/start-server.js';

const examplePackage = fileURLToPath(new URL('../../../examples/provider-example/', import.meta.url));
const fixtures = createFixtureReader(join(examplePackage, 'fixtures'));
const KEY = 'sk-third-party-test-0123456789';
let cwd: string;
let upstream: MockUpstream;
let running: RunningServer;

beforeAll(async () => {
  // A user's project: the adapter installed in its node_modules, the gateway started from there.
  cwd = await mkdtemp(join(tmpdir(), 'switchyard-user-'));
  await mkdir(join(cwd, 'node_modules'));
  await symlink(examplePackage, join(cwd, 'node_modules', 'switchyard-provider-example'), 'dir');
  await writeFile(join(cwd, 'package.json'), '{"name":"user-project","private":true}');
  upstream = await startMockUpstream({
    routes: {
      'POST /v2/chat': (request) =>
        (request.json as { stream?: boolean }).stream
          ? { chunks: sseFrames(fixtures.chunkLines('cohere-text.chunks.txt'), 'typed') }
          : { json: fixtures.json('cohere-text.json') },
    },
  });
  const config = parseConfig(
    `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  cohere: { adapter: switchyard-provider-example, api_key: co-test-key-000000, base_url: "${upstream.url}/v2" }
models:
  - { id: command-r-plus, provider: cohere }
`,
    'user.yaml',
    {},
  );
  running = await startServer(config, { cwd, logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

describe('a third-party adapter loaded by package name', () => {
  it('serves chat and streams through the official SDK', async () => {
    const client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'command-r-plus',
      messages: [{ role: 'user', content: 'Capital of France?' }],
    });
    expect(completion.choices[0]?.message.content).toBe('The capital of France is Paris.');
    const stream = await client.chat.completions.create({
      model: 'command-r-plus',
      stream: true,
      messages: [{ role: 'user', content: 'Capital of France?' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('The capital of France is Paris.');
  });

  it('answers operations it does not implement with 400 unsupported_operation', async () => {
    const client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
    await expect(client.embeddings.create({ model: 'command-r-plus', input: 'x' })).rejects.toMatchObject({
      status: 400,
      code: 'unsupported_operation',
    });
  });

  it("rejects settings that fail the adapter's own schema, naming the package's setting", async () => {
    await expect(createProviders({ cohere: { adapter: 'switchyard-provider-example' } }, cwd)).rejects.toThrow(
      /providers\.cohere\.api_key/,
    );
  });

  it('refuses a package that exports no factory, or one with another spec version', async () => {
    for (const [name, source] of [
      ['not-an-adapter', 'export const hello = 1;'],
      [
        'old-adapter',
        "export const switchyardProvider = { specVersion: 0, adapter: 'old', settingsSchema: { safeParse: () => ({ success: true, data: {} }) }, create() {} };",
      ],
    ]) {
      await mkdir(join(cwd, 'node_modules', name!), { recursive: true });
      await writeFile(
        join(cwd, 'node_modules', name!, 'package.json'),
        JSON.stringify({ name, type: 'module', exports: './index.js' }),
      );
      await writeFile(join(cwd, 'node_modules', name!, 'index.js'), source!);
    }
    await expect(createProviders({ x: { adapter: 'not-an-adapter' } }, cwd)).rejects.toThrow(
      /providers\.x: package 'not-an-adapter' does not export a Switchyard provider factory/,
    );
    await expect(createProviders({ x: { adapter: 'old-adapter' } }, cwd)).rejects.toThrow(
      /package 'old-adapter' implements adapter spec version 0, but this gateway supports version 1/,
    );
  });
});
