import { describeBatchStore } from '@switchyard/testkit/account-store';
import { startPostgres } from '@switchyard/testkit/servers';
import { afterAll } from 'vitest';
import { PostgresBatchStore } from '../src/index.js';

const postgres = await startPostgres();
afterAll(() => postgres.close());

const created = new Set<string>();
describeBatchStore('Postgres', {
  open: async (name) => {
    if (!created.has(name)) {
      await postgres.createDatabase(name);
      created.add(name);
    }
    return PostgresBatchStore.open({ connectionString: postgres.url(name) });
  },
});
