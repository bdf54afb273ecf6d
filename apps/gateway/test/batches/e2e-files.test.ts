import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { createAdminKey } from '../helpers/admin-keys.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

const MASTER = 'sk-master-key-for-files-0123456789';

let upstream: MockUpstream;
let running: RunningServer;
let dir: string;
let alice: OpenAI;
let bob: OpenAI;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-files-e2e-'));
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
  running = await startGatewayFromYaml(`
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'switchyard.db')}" }
server: { port: 0 }
files: { max_bytes: 100000 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o, provider: openai }
`);
  const origin = running.url.replace(/\/v1$/, '');
  const [a, b] = await Promise.all([
    createAdminKey(origin, MASTER, { name: 'alice' }),
    createAdminKey(origin, MASTER, { name: 'bob' }),
  ]);
  alice = new OpenAI({ baseURL: running.url, apiKey: a.key, maxRetries: 0 });
  bob = new OpenAI({ baseURL: running.url, apiKey: b.key, maxRetries: 0 });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

const jsonl =
  '{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o","messages":[]}}\n';

describe('/v1/files through the openai SDK', () => {
  it('uploads, retrieves, lists, downloads and deletes a file, byte for byte, in the storage folder beside the database', async () => {
    const created = await alice.files.create({
      file: await toFile(Buffer.from(jsonl), 'input.jsonl'),
      purpose: 'batch',
    });
    expect(created).toMatchObject({
      object: 'file',
      bytes: Buffer.byteLength(jsonl),
      filename: 'input.jsonl',
      purpose: 'batch',
      status: 'processed',
    });
    expect(created.id).toMatch(/^file-[0-9a-f]{28}$/);
    // Batch input files expire after 30 days, as OpenAI's.
    expect(created.expires_at).toBe(created.created_at + 30 * 24 * 3600);
    expect(await readdir(join(dir, 'switchyard-files'))).toContain(created.id);
    expect(await alice.files.retrieve(created.id)).toEqual(created);
    expect(await (await alice.files.content(created.id)).text()).toBe(jsonl);
    const listed = await alice.files.list();
    expect(listed.data.map((f) => f.id)).toContain(created.id);
    expect(await alice.files.delete(created.id)).toEqual({ id: created.id, object: 'file', deleted: true });
    await expect(alice.files.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    expect(await readdir(join(dir, 'switchyard-files'))).not.toContain(created.id);
  });

  it("hides a key's files from every other key (404 on retrieve, content and delete; absent from lists)", async () => {
    const mine = await alice.files.create({
      file: await toFile(Buffer.from('secret data'), 'notes.txt'),
      purpose: 'user_data',
    });
    await expect(bob.files.retrieve(mine.id)).rejects.toMatchObject({
      status: 404,
      error: { message: `No such File object: ${mine.id}` },
    });
    await expect(bob.files.content(mine.id)).rejects.toMatchObject({ status: 404 });
    await expect(bob.files.delete(mine.id)).rejects.toMatchObject({ status: 404 });
    expect((await bob.files.list()).data.map((f) => f.id)).not.toContain(mine.id);
    expect((await alice.files.retrieve(mine.id)).id).toBe(mine.id);
  });

  it('lists by purpose in both orders and pages with after and limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await bob.files.create({ file: await toFile(Buffer.from(`n${i}`), `f${i}.txt`), purpose: 'assistants' })).id,
      );
    await bob.files.create({ file: await toFile(Buffer.from('other'), 'o.txt'), purpose: 'vision' });
    const page = await bob.files.list({ purpose: 'assistants', limit: 2 });
    expect(page.data.map((f) => f.id)).toEqual([ids[2], ids[1]]);
    expect(page.has_more).toBe(true);
    const all: string[] = [];
    for await (const file of bob.files.list({ purpose: 'assistants', limit: 1, order: 'asc' })) all.push(file.id);
    expect(all).toEqual(ids);
  });

  it('refuses a file over files.max_bytes with 413 and keeps none of it; a bad purpose with 400 naming it', async () => {
    const before = await readdir(join(dir, 'switchyard-files'));
    await expect(
      alice.files.create({ file: await toFile(Buffer.alloc(100_001), 'big.bin'), purpose: 'user_data' }),
    ).rejects.toMatchObject({
      status: 413,
      error: { code: 'file_too_large', message: 'The uploaded file exceeds the 100000 byte limit.' },
    });
    await expect(
      alice.files.create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'nope' as 'batch' }),
    ).rejects.toMatchObject({
      status: 400,
      error: { param: 'purpose' },
    });
    expect(await readdir(join(dir, 'switchyard-files'))).toEqual(before);
  });
});
