import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpawnedGateway, spawnGateway } from '../helpers/spawn-gateway.js';

const KEY = 'sk-switchyard-large-upload-0123456789';
const SIZE = 300 * 1024 * 1024;
const MIB = 1024 * 1024;

let gateway: SpawnedGateway;
let dir: string;
let source: string;

/** The gateway process's resident set size, bytes (`VmRSS` of /proc/<pid>/status). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-large-'));
  source = join(dir, 'upload.bin');
  const out = createWriteStream(source);
  const block = Buffer.alloc(MIB, 'a');
  for (let i = 0; i < SIZE / MIB; i++) if (!out.write(block)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  gateway = await spawnGateway(`
server: { host: 127.0.0.1, port: 0 }
keys: ["${KEY}"]
files: { dir: "${join(dir, 'files')}" }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "http://127.0.0.1:1/v1" }
models:
  - { id: gpt-4o, provider: openai }
`);
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a 300 MB upload', () => {
  it('is streamed to the storage folder with the RSS of the gateway staying under idle + 200 MiB', async () => {
    const pid = gateway.child.pid as number;
    const client = new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0, timeout: 120_000 });
    await client.files.list(); // warm: the route's modules loaded
    const idle = await rssOf(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      rssOf(pid).then(
        (rss) => {
          peak = Math.max(peak, rss);
        },
        () => {},
      );
    }, 20);
    // The body streams from disk (a file-backed Blob), so the client holds none of it either.
    const form = new FormData();
    form.append('purpose', 'user_data');
    form.append('file', await openAsBlob(source), 'upload.bin');
    const res = await fetch(`${gateway.url}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    clearInterval(sampler);
    peak = Math.max(peak, await rssOf(pid));
    const file = (await res.json()) as { id: string; bytes: number };
    expect(res.status).toBe(200);
    expect(file.bytes).toBe(SIZE);
    expect((await stat(join(dir, 'files', file.id))).size).toBe(SIZE);
    console.log(
      `300 MB upload: gateway RSS idle ${(idle / MIB).toFixed(1)} MiB, peak ${(peak / MIB).toFixed(1)} MiB, growth ${((peak - idle) / MIB).toFixed(1)} MiB`,
    );
    expect(peak - idle).toBeLessThan(200 * MIB);
    // The download streams too: same size back.
    const content = await client.files.content(file.id);
    let bytes = 0;
    for await (const chunk of content.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
    expect(bytes).toBe(SIZE);
  }, 120_000);
});
