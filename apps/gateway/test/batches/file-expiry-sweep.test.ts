import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteBatchStore } from '@switchyard/store-sqlite';
import { describe, expect, it } from 'vitest';
import { FileExpirySweep } from '../../src/files/file-expiry-sweep.js';
import { FileStorage } from '../../src/files/file-storage.js';
import { Files } from '../../src/files/files.js';

async function openFiles(): Promise<Files> {
  const storage = await FileStorage.open(await mkdtemp(join(tmpdir(), 'switchyard-sweep-')));
  return new Files(new SqliteBatchStore(':memory:'), storage, { maxBytes: 1e6, maxBytesPerKey: 1e6 });
}

async function upload(files: Files, expiresAfterS?: number) {
  const id = files.newId();
  const bytes = await files.storage.write(
    id,
    (async function* () {
      yield '{}\n';
    })(),
  );
  return files.add({ id, owner: 'o', bytes, filename: 'a.jsonl', purpose: 'user_data', expiresAfterS });
}

describe('FileExpirySweep', () => {
  it('holds no timer while no file expires, deletes a file when it expires, then holds none again', async () => {
    const files = await openFiles();
    const sweep = new FileExpirySweep(files, (error) => {
      throw error;
    });
    files.onAdded = (file) => sweep.expiresAt(file.expires_at);
    await sweep.start();
    expect(sweep.scheduled).toBe(false);
    const kept = await upload(files);
    expect(sweep.scheduled).toBe(false);
    const expiring = await upload(files, 1);
    expect(sweep.scheduled).toBe(true);
    await expect.poll(() => readdir(files.storage.dir), { timeout: 5_000, interval: 50 }).toEqual([kept.id]);
    await expect(files.get(expiring.id, 'o')).rejects.toMatchObject({ status: 404 });
    expect(sweep.scheduled).toBe(false);
    sweep.close();
  });

  it('schedules at start the earliest expiry already in the store', async () => {
    const files = await openFiles();
    await upload(files, 3600);
    const sweep = new FileExpirySweep(files, () => {});
    await sweep.start();
    expect(sweep.scheduled).toBe(true);
    sweep.close();
    expect(sweep.scheduled).toBe(false);
  });
});
