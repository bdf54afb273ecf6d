import { type StoredResponse, newResponseObject } from '@switchyard/front-door-responses';
import { startPostgres } from '@switchyard/testkit/servers';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresAccountStore, PostgresResponseStore } from '../src/index.js';

const postgres = await startPostgres();
afterAll(() => postgres.close());

const record = (id: string, owner: string, expiresIn: number): StoredResponse => ({
  id,
  owner,
  created_at: Date.now(),
  expires_at: Date.now() + expiresIn,
  response: newResponseObject(id, { model: 'm', input: 'hi' }, 1, true),
  input_items: [{ id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
  history: [],
});

describe('PostgresResponseStore', () => {
  it('shares responses between two store instances, for their owner only, until deleted or expired', async () => {
    const url = await postgres.createDatabase('responses');
    const accounts = await PostgresAccountStore.open({ connectionString: url });
    const [a, b] = await Promise.all([PostgresResponseStore.open({ connectionString: url }), PostgresResponseStore.open({ connectionString: url })]);
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
});
