import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { BatchStore } from '@switchyard/accounts';
import type { GatewayConfig } from '../config/config-schema.js';
import { FileExpirySweep } from '../files/file-expiry-sweep.js';
import { FileStorage } from '../files/file-storage.js';
import { Files } from '../files/files.js';
import { accountsEnabled, sqlitePath } from './open-accounts.js';

/** Folder name of the file storage beside the SQLite file (or the config file) when `files.dir` is not set. */
export const DEFAULT_FILES_DIR = 'switchyard-files';

/** `/v1/files` with its store and storage, plus a way to close them. */
export interface OpenedFiles {
  files: Files;
  close(): Promise<void>;
}

/**
 * Opens `/v1/files`: metadata (and batch jobs) in the accounts database (Postgres for `store.postgres`, else the
 * SQLite file), bytes in `files.dir` resolved against the config file's folder (default: `switchyard-files` beside the
 * SQLite file, or beside the config file with Postgres; replicas sharing Postgres need a `files.dir` on a shared
 * volume). Without accounts (no `admin`, no `store`), metadata lives in an in-memory SQLite database and the bytes in
 * `files.dir` or a temporary folder removed at close: files and batches then last as long as the process. Throws when
 * Postgres cannot be reached within `store.timeout_ms` or the folder cannot be created. Expired files are deleted when
 * they expire (see {@link FileExpirySweep}; failures go to `onError`).
 */
export async function openFiles(
  config: GatewayConfig,
  configPath?: string,
  onError: (error: unknown) => void = () => {},
): Promise<OpenedFiles> {
  const base = configPath ? dirname(configPath) : process.cwd();
  const configured =
    config.files.dir && (isAbsolute(config.files.dir) ? config.files.dir : resolve(base, config.files.dir));
  let store: BatchStore;
  let dir: string;
  let temporary: string | undefined;
  if (config.store?.postgres) {
    const { PostgresBatchStore } = await import('@switchyard/store-postgres');
    store = await PostgresBatchStore.open({
      connectionString: config.store.postgres,
      timeoutMs: config.store.timeout_ms,
    });
    dir = configured ?? join(base, DEFAULT_FILES_DIR);
  } else {
    const { SqliteBatchStore } = await import('@switchyard/store-sqlite');
    const file = accountsEnabled(config) ? sqlitePath(config, configPath) : ':memory:';
    store = new SqliteBatchStore(file);
    if (configured) dir = configured;
    else if (file !== ':memory:') dir = join(dirname(file), DEFAULT_FILES_DIR);
    else dir = temporary = await mkdtemp(join(tmpdir(), 'switchyard-files-'));
  }
  const storage = await FileStorage.open(dir);
  const files = new Files(store, storage, {
    maxBytes: config.files.max_bytes,
    maxBytesPerKey: config.files.max_bytes_per_key,
  });
  const sweep = new FileExpirySweep(files, onError);
  files.onAdded = (file) => sweep.expiresAt(file.expires_at);
  await sweep.start();
  return {
    files,
    async close() {
      sweep.close();
      await store.close();
      if (temporary) await rm(temporary, { recursive: true, force: true });
    },
  };
}
