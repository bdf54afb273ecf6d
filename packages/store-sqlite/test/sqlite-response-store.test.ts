import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StoredResponse, newResponseObject } from '@switchyard/front-door-responses';
import { describe, expect, it } from 'vitest';
import { SqliteResponseStore } from '../src/index.js';

const record = (id: string, owner: string, expiresIn: number): StoredResponse => ({
  id,
  owner,
  created_at: Date.now(),
  expires_at: Date.now() + expiresIn,
  response: newResponseObject(id, { model: 'm', input: 'hi' }, 1, true),
  input_items: [{ id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
  history: [],
});

describe('SqliteResponseStore', () => {
  it('keeps a response across a reopen, for its owner only, until deleted', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'switchyard-resp-')), 'accounts.db');
    const store = new SqliteResponseStore(path);
    await store.putResponse(record('resp_a', 'owner-1', 60_000));
    await store.close();
    const reopened = new SqliteResponseStore(path);
    expect((await reopened.getResponse('resp_a', 'owner-1'))?.input_items[0]).toMatchObject({ id: 'msg_1', role: 'user' });
    expect(await reopened.getResponse('resp_a', 'owner-2')).toBeUndefined();
    expect(await reopened.deleteResponse('resp_a', 'owner-2')).toBe(false);
    expect(await reopened.deleteResponse('resp_a', 'owner-1')).toBe(true);
    expect(await reopened.getResponse('resp_a', 'owner-1')).toBeUndefined();
    await reopened.close();
  });

  it('never returns an expired response', async () => {
    const store = new SqliteResponseStore(':memory:');
    await store.putResponse(record('resp_old', 'o', -1));
    await store.putResponse(record('resp_new', 'o', 60_000));
    expect(await store.getResponse('resp_old', 'o')).toBeUndefined();
    expect((await store.getResponse('resp_new', 'o'))?.id).toBe('resp_new');
    await store.close();
  });
});
