import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What a stored file id looks like (see `newId`): nothing else becomes a path. */
const FILE_ID = /^file-[0-9a-f]{28}$/;

/**
 * The bytes of `/v1/files`: one file per id in a directory (beside the SQLite database by default; a shared volume
 * when replicas share Postgres). Files are written and read as streams, never held whole in memory.
 */
export class FileStorage {
  private constructor(readonly dir: string) {}

  /** Creates the directory if needed. Throws when it cannot be created. */
  static async open(dir: string): Promise<FileStorage> {
    await mkdir(dir, { recursive: true });
    return new FileStorage(dir);
  }

  /** True when `id` has the shape of a file id (anything else is never looked up). */
  static isFileId(id: string): boolean {
    return FILE_ID.test(id);
  }

  /** Where the bytes of file `id` live. Throws for an id that is not a file id. */
  pathOf(id: string): string {
    if (!FileStorage.isFileId(id)) throw new Error(`not a file id: ${id}`);
    return join(this.dir, id);
  }

  /** The size of file `id`'s bytes, bytes. */
  async size(id: string): Promise<number> {
    return (await stat(this.pathOf(id))).size;
  }

  /** A stream of file `id`'s bytes. */
  read(id: string): ReadStream {
    return createReadStream(this.pathOf(id));
  }

  /** Writes file `id` from `chunks` (text or bytes); resolves with its size, bytes. */
  async write(id: string, chunks: AsyncIterable<string | Uint8Array>): Promise<number> {
    const path = this.pathOf(id);
    await pipeline(Readable.from(chunks), createWriteStream(path));
    return this.size(id);
  }

  /** Deletes file `id`'s bytes; nothing when they are already gone. */
  async remove(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }
}
