import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBatchStore } from '@switchyard/testkit/account-store';
import { SqliteBatchStore } from '../src/index.js';

const dir = await mkdtemp(join(tmpdir(), 'switchyard-batches-'));
describeBatchStore('SQLite', { open: async (name) => new SqliteBatchStore(join(dir, `${name}.db`)) });
