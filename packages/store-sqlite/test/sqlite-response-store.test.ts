import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type StoredResponse,
  loadConversation,
  newResponseObject,
  normalizeInputItems,
} from '@switchyard/front-door-responses';
import Database from 'better-sqlite3';
import { describeResponseStore } from '@switchyard/testkit/account-store';
import { describe, expect, it } from 'vitest';
import { SqliteResponseStore } from '../src/index.js';

const record = (id: string, owner: string, expiresIn: number): StoredResponse => ({
  id,
  owner,
  created_at: Date.now(),
  expires_at: Date.now() + expiresIn,
  response: newResponseObject(id, { model: 'm', input: 'hi' }, 1, true),
  input_items: [{ id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
  previous_response_id: null,
});

/** A record of `owner` whose input is one user message of `bytes` characters, continuing `previous`. */
const sized = (id: string, owner: string, bytes: number, previous: string | null = null): StoredResponse => ({
  ...record(id, owner, 60_000),
  input_items: normalizeInputItems([{ id: `msg_${id}`, role: 'user', content: 'x'.repeat(bytes) }]),
  previous_response_id: previous,
});

describeResponseStore('SQLite', {
  open: async (limits) => new SqliteResponseStore(':memory:', { maxBytesPerOwner: limits?.maxBytesPerOwner }),
});

describe('SqliteResponseStore', () => {
  it('keeps a response across a reopen, for its owner only, until deleted', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'switchyard-resp-')), 'accounts.db');
    const store = new SqliteResponseStore<StoredResponse>(path);
    await store.putResponse(record('resp_a', 'owner-1', 60_000));
    await store.close();
    const reopened = new SqliteResponseStore<StoredResponse>(path);
    expect((await reopened.getResponse('resp_a', 'owner-1'))?.input_items[0]).toMatchObject({
      id: 'msg_1',
      role: 'user',
    });
    expect(await reopened.getResponse('resp_a', 'owner-2')).toBeUndefined();
    expect(await reopened.deleteResponse('resp_a', 'owner-2')).toBe(false);
    expect(await reopened.deleteResponse('resp_a', 'owner-1')).toBe(true);
    expect(await reopened.getResponse('resp_a', 'owner-1')).toBeUndefined();
    await reopened.close();
  });

  it('migrates a database of the first layout: old rows (with their copied history) stay readable, continuable and findable', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'switchyard-resp-')), 'accounts.db');
    const old = new Database(path);
    old.exec(
      'CREATE TABLE responses (id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, record TEXT NOT NULL); CREATE INDEX responses_expiry ON responses (expires_at);',
    );
    const legacy = {
      ...record('resp_old', 'o', 60_000),
      previous_response_id: undefined,
      history: normalizeInputItems([{ id: 'msg_early', role: 'user', content: 'earlier' }]),
    };
    old
      .prepare('INSERT INTO responses VALUES (?, ?, ?, ?, ?)')
      .run(legacy.id, legacy.owner, legacy.created_at, legacy.expires_at, JSON.stringify(legacy));
    old.close();
    const store = new SqliteResponseStore<StoredResponse>(path);
    expect((await store.getResponse('resp_old', 'o'))?.input_items[0]).toMatchObject({ id: 'msg_1' });
    expect((await store.findResponseWithItem('msg_1', 'o'))?.id).toBe('resp_old');
    await store.putResponse(sized('resp_new', 'o', 10, 'resp_old'));
    const conversation = await loadConversation(store, 'resp_new', 'o');
    expect(conversation.map((item) => item.id)).toEqual([
      'msg_early',
      'msg_1',
      ...legacy.response.output.map((item) => item.id),
      'msg_resp_new',
    ]);
    await store.close();
    // Opening a migrated file again changes nothing.
    const again = new SqliteResponseStore<StoredResponse>(path);
    expect((await again.getResponse('resp_old', 'o'))?.id).toBe('resp_old');
    await again.close();
  });
});
