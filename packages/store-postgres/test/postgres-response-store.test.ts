import {
  type StoredResponse,
  loadConversation,
  newResponseObject,
  normalizeInputItems,
} from '@switchyard/front-door-responses';
import { describeResponseStore } from '@switchyard/testkit/account-store';
import { startPostgres } from '@switchyard/testkit/servers';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { MIGRATIONS, PostgresAccountStore, PostgresResponseStore, migrate } from '../src/index.js';

const postgres = await startPostgres();
afterAll(() => postgres.close());

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

let databases = 0;
describeResponseStore('Postgres', {
  open: async (limits) =>
    PostgresResponseStore.open({
      connectionString: await postgres.createDatabase(`responses_suite_${databases++}`),
      maxBytesPerOwner: limits?.maxBytesPerOwner,
    }),
});

describe('PostgresResponseStore', () => {
  it('shares responses between two store instances, for their owner only, until deleted or expired', async () => {
    const url = await postgres.createDatabase('responses');
    const accounts = await PostgresAccountStore.open({ connectionString: url });
    const [a, b] = await Promise.all([
      PostgresResponseStore.open<StoredResponse>({ connectionString: url }),
      PostgresResponseStore.open<StoredResponse>({ connectionString: url }),
    ]);
    try {
      await a.putResponse(record('resp_a', 'owner-1', 60_000));
      await a.putResponse(record('resp_old', 'owner-1', -1));
      expect((await b.getResponse('resp_a', 'owner-1'))?.input_items[0]).toMatchObject({ id: 'msg_1', role: 'user' });
      expect(await b.getResponse('resp_a', 'owner-2')).toBeUndefined();
      expect(await b.getResponse('resp_old', 'owner-1')).toBeUndefined();
      expect(await b.deleteResponse('resp_a', 'owner-2')).toBe(false);
      expect(await b.deleteResponse('resp_a', 'owner-1')).toBe(true);
      expect(await a.getResponse('resp_a', 'owner-1')).toBeUndefined();
    } finally {
      await Promise.all([a.close(), b.close(), accounts.close()]);
    }
  });

  it('migrates rows of the first layout: they stay readable, continuable and findable', async () => {
    const url = await postgres.createDatabase('responses_legacy');
    const pool = new pg.Pool({ connectionString: url });
    await migrate(
      pool,
      MIGRATIONS.filter((m) => m.version < 8),
    );
    const legacy = {
      ...record('resp_old', 'o', 60_000),
      previous_response_id: undefined,
      history: normalizeInputItems([{ id: 'msg_early', role: 'user', content: 'earlier' }]),
    };
    await pool.query(
      'INSERT INTO switchyard_responses (id, owner, created_at, expires_at, record) VALUES ($1, $2, $3, $4, $5)',
      [legacy.id, legacy.owner, legacy.created_at, legacy.expires_at, JSON.stringify(legacy)],
    );
    await pool.end();
    const store = await PostgresResponseStore.open<StoredResponse>({ connectionString: url });
    try {
      expect((await store.getResponse('resp_old', 'o'))?.input_items[0]).toMatchObject({ id: 'msg_1' });
      expect((await store.findResponseWithItem('msg_1', 'o'))?.id).toBe('resp_old');
      await store.putResponse(sized('resp_new', 'o', 10, 'resp_old'));
      expect((await loadConversation(store, 'resp_new', 'o')).map((item) => item.id)).toEqual([
        'msg_early',
        'msg_1',
        'msg_resp_new',
      ]);
    } finally {
      await store.close();
    }
  });
});
