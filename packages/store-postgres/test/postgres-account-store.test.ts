import { describeAccountStore } from '@switchyard/testkit/account-store';
import { startPostgres } from '@switchyard/testkit/servers';
import { afterAll } from 'vitest';
import { PostgresAccountStore } from '../src/index.js';

const postgres = await startPostgres();
afterAll(() => postgres.close());

const created = new Set<string>();
describeAccountStore('Postgres', {
  open: async (name) => {
    if (!created.has(name)) {
      await postgres.createDatabase(name);
      created.add(name);
    }
    return PostgresAccountStore.open({ connectionString: postgres.url(name) });
  },
});
