import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockUpstream, startMockUpstream } from '@switchyard/testkit';
import { type TestPostgres, freePort, startPostgres } from '@switchyard/testkit/servers';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpawnedGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { completion } from './accounts-gateway.js';

// Attack (issue #38, item 3): each stored response kept a copy of the whole conversation before it. In the default
// in-memory store one 15 MB input and 119 tiny `previous_response_id` follow-ups took the gateway from 112 to 1,892 MiB
// of RSS after GC (retained), and on SQLite one 5 MB input and 29 follow-ups added 155.5 MB to the database. Now each
// response keeps its own items and a link, the memory store is bounded in bytes and every store has a per-key quota.
// These tests run the built gateway in a child process and read its RSS after a full GC (test/security/gc-probe.mjs,
// preloaded) and the SQLite files' sizes.

const KEY = 'sk-switchyard-stored-0123456789';
const OTHER = 'sk-switchyard-stored-other-0000';
const MB = 1_000_000;
const MiB = 1024 * 1024;
const PROBE = fileURLToPath(new URL('./gc-probe.mjs', import.meta.url));

let upstream: MockUpstream;
beforeAll(async () => {
  // Not recording: the upstream gets the whole conversation (megabytes) on every turn.
  upstream = await startMockUpstream({
    routes: { 'POST /v1/chat/completions': { json: completion('m', 1, 1) } },
    record: false,
  });
});
afterAll(() => upstream?.close());

const yaml = async (extra: string) => `
server: { port: ${await freePort()} }
keys: ["${KEY}", "${OTHER}"]
log: { level: warn }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: m, provider: openai }
${extra}`;

/** The gateway's RSS after a full GC, bytes (it prints it on SIGUSR2). */
async function rssAfterGc(gateway: SpawnedGateway): Promise<number> {
  const n = gateway.lines.filter((line) => line.startsWith('gc-probe ')).length + 1;
  gateway.child.kill('SIGUSR2');
  const line = await gateway.waitForLine(new RegExp(`^gc-probe ${n} rss=\\d+`), 30_000);
  return Number(/rss=(\d+)/.exec(line)![1]);
}

/** One big input, then `turns` tiny follow-ups each continuing the previous response; calls `at(turn)` after each. */
async function conversation(
  client: OpenAI,
  bigInput: string,
  turns: number,
  at: (turn: number) => Promise<void>,
): Promise<string> {
  let previous = (await client.responses.create({ model: 'm', input: bigInput })).id;
  for (let turn = 1; turn <= turns; turn++) {
    previous = (await client.responses.create({ model: 'm', input: 'ok', previous_response_id: previous })).id;
    await at(turn);
  }
  return previous;
}

describe('stored responses grow with the new items of each turn, not with the conversation', () => {
  it('in memory (no accounts): a 4 MB input and 40 follow-ups keep about one copy of it', async () => {
    const gateway = await spawnGateway(await yaml(''), [], { NODE_OPTIONS: `--expose-gc --import ${PROBE}` });
    try {
      const client = new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      await client.responses.create({ model: 'm', input: 'warm up' });
      const before = await rssAfterGc(gateway);
      let atTen = 0;
      const last = await conversation(client, 'x'.repeat(4 * MB), 40, async (turn) => {
        if (turn === 10) atTen = await rssAfterGc(gateway);
      });
      const after = await rssAfterGc(gateway);
      // Copies of the history would hold 40 x 4 MB = 160 MB; one copy plus the tiny turns is 4 MB.
      expect(after - before).toBeLessThan(48 * MiB);
      // Turns 11 to 40 add 30 tiny items: no copy of the 4 MB input (each would be 4 MB).
      expect(after - atTen).toBeLessThan(12 * MiB);
      // The conversation is whole: the last turn can be continued and the upstream got the big input again.
      const next = await client.responses.create({ model: 'm', input: 'and now?', previous_response_id: last });
      expect(next.previous_response_id).toBe(last);
    } finally {
      await gateway.stop();
    }
  }, 180_000);

  it('on SQLite: a 5 MB input and 29 follow-ups add about one copy of it to the database', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'switchyard-stored-')), 'accounts.db');
    const gateway = await spawnGateway(await yaml(`store: { sqlite: "${file}" }`));
    const size = () =>
      ['', '-wal', '-shm'].reduce(
        (total, suffix) => total + (existsSync(file + suffix) ? statSync(file + suffix).size : 0),
        0,
      );
    try {
      const client = new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
      await client.responses.create({ model: 'm', input: 'warm up' });
      const before = size();
      let atFive = 0;
      await conversation(client, 'x'.repeat(5 * MB), 29, async (turn) => {
        if (turn === 5) atFive = size();
      });
      const after = size();
      // Copies would add 29 x 5 MB = 145 MB; the input once in the database and once in the write-ahead log is 10 MB.
      expect(after - before).toBeLessThan(16 * MB);
      expect(after - atFive).toBeLessThan(1 * MB);
    } finally {
      await gateway.stop();
    }
  }, 180_000);

  it('on Postgres: a 2 MB input and 20 follow-ups add about one copy of it to the tables', async () => {
    let postgres: TestPostgres | undefined;
    let gateway: SpawnedGateway | undefined;
    try {
      postgres = await startPostgres();
      const url = await postgres.createDatabase('stored_growth');
      gateway = await spawnGateway(await yaml(`store: { postgres: "${url}" }`));
      const db = new pg.Pool({ connectionString: url, max: 1 });
      // Table, TOAST and indexes of both stored-response tables, bytes.
      const size = async () =>
        Number(
          (
            await db.query<{ bytes: string }>(
              "SELECT pg_total_relation_size('switchyard_responses') + pg_total_relation_size('switchyard_response_items') AS bytes",
            )
          ).rows[0]!.bytes,
        );
      try {
        const client = new OpenAI({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
        await client.responses.create({ model: 'm', input: 'warm up' });
        const before = await size();
        // Random base64 barely compresses, so TOAST cannot hide copies.
        await conversation(client, randomBytes(1.5 * MB).toString('base64'), 20, async () => {});
        const after = await size();
        // Copies would add 20 x 2 MB = 40 MB; the input once (compressed a little) is under 2 MB.
        expect(after - before).toBeLessThan(4 * MB);
      } finally {
        await db.end();
      }
    } finally {
      await gateway?.stop();
      await postgres?.close();
    }
  }, 180_000);
});
