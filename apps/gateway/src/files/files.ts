import type { BatchStore, FilePurpose, StoredFile } from '@switchyard/accounts';
import { GatewayError, invalidRequestError } from '@switchyard/core';
import { z } from 'zod';
import { FileStorage } from './file-storage.js';
import { newId } from './new-id.js';

/** Limits of {@link Files}, bytes. */
export interface FileLimits {
  /** Largest upload. */
  maxBytes: number;
  /** Most bytes one key may keep. */
  maxBytesPerKey: number;
}

/** The purposes a client may upload with. */
export const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;

/** Batch input files expire after 30 days unless `expires_after` says otherwise, as OpenAI's do. */
const BATCH_FILE_TTL_S = 30 * 24 * 3600;

/** Query of `GET /v1/files`. */
const listQuerySchema = z.object({
  purpose: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
  order: z.enum(['asc', 'desc']).default('desc'),
  after: z.string().max(64).optional(),
});

/** OpenAI's 404 for a file that does not exist for this key. */
export const noSuchFile = (id: string) =>
  new GatewayError({
    status: 404,
    type: 'invalid_request_error',
    param: 'id',
    code: null,
    message: `No such File object: ${id}`,
  });

/**
 * `/v1/files` of every key: metadata in the {@link BatchStore}, bytes in the {@link FileStorage}. A file belongs to the
 * key that uploaded it (its `owner`: a SHA-256 of the key); for any other key it does not exist (404). Expired files
 * are not found and are deleted by {@link sweepExpired}.
 * @see https://platform.openai.com/docs/api-reference/files
 */
export class Files {
  /** Called with each file recorded (uploads and batch outputs), e.g. to schedule its expiry. */
  onAdded?: (file: StoredFile) => void;

  constructor(
    readonly store: BatchStore,
    readonly storage: FileStorage,
    readonly limits: FileLimits,
  ) {}

  /** A new file id. */
  newId(): string {
    return newId('file-');
  }

  /** The file `id` of `owner`; throws 404 when it does not exist, has expired or is another key's. */
  async get(id: string, owner: string): Promise<StoredFile> {
    const file = FileStorage.isFileId(id) ? await this.store.getFile(id, owner) : undefined;
    if (!file || (file.expires_at !== null && file.expires_at <= Date.now() / 1000)) throw noSuchFile(id);
    return file;
  }

  /**
   * Records the uploaded bytes of file `id` (already in storage) as `owner`'s. Throws 413 `storage_quota_exceeded`
   * (and deletes the bytes) when the key would keep more than `maxBytesPerKey`.
   */
  async add(input: {
    id: string;
    owner: string;
    bytes: number;
    filename: string;
    purpose: FilePurpose;
    expiresAfterS?: number;
  }): Promise<StoredFile> {
    const used = await this.store.fileBytes(input.owner);
    if (used + input.bytes > this.limits.maxBytesPerKey) {
      await this.storage.remove(input.id);
      throw new GatewayError({
        status: 413,
        type: 'invalid_request_error',
        code: 'storage_quota_exceeded',
        param: 'file',
        message: `This key keeps ${used} bytes of files; ${input.bytes} more would exceed its ${this.limits.maxBytesPerKey} bytes. Delete files first.`,
      });
    }
    const created_at = Math.floor(Date.now() / 1000);
    const ttl = input.expiresAfterS ?? (input.purpose === 'batch' ? BATCH_FILE_TTL_S : undefined);
    const file: StoredFile = {
      id: input.id,
      owner: input.owner,
      bytes: input.bytes,
      created_at,
      expires_at: ttl === undefined ? null : created_at + ttl,
      filename: input.filename.slice(0, 256),
      purpose: input.purpose,
    };
    try {
      await this.store.insertFile(file);
    } catch (error) {
      await this.storage.remove(input.id);
      throw error;
    }
    this.onAdded?.(file);
    return file;
  }

  /** A page of `owner`'s files for the query of `GET /v1/files`; throws 400 naming a bad parameter. */
  async list(owner: string, query: unknown): Promise<{ data: StoredFile[]; has_more: boolean }> {
    const parsed = listQuerySchema.safeParse(query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = String(issue?.path[0] ?? 'query');
      throw invalidRequestError(`Invalid '${param}': ${issue?.message ?? 'invalid value'}.`, param);
    }
    const { limit, ...rest } = parsed.data;
    const now = Date.now() / 1000;
    const rows = (await this.store.listFiles({ owner, ...rest, limit: limit + 1 })).filter(
      (f) => f.expires_at === null || f.expires_at > now,
    );
    return { data: rows.slice(0, limit), has_more: rows.length > limit };
  }

  /** Deletes file `id` of `owner` (record, then bytes); throws 404 when it does not exist for this key. */
  async delete(id: string, owner: string): Promise<void> {
    await this.get(id, owner);
    if (!(await this.store.deleteFile(id, owner))) throw noSuchFile(id);
    await this.storage.remove(id);
  }

  /** Deletes up to `limit` expired files (records and bytes); resolves with how many. */
  async sweepExpired(limit = 1_000): Promise<number> {
    const expired = await this.store.expiredFiles(Math.floor(Date.now() / 1000), limit);
    for (const file of expired) {
      await this.store.deleteFile(file.id, file.owner);
      await this.storage.remove(file.id);
    }
    return expired.length;
  }
}
