/**
 * Where `/v1/files` metadata and `/v1/batches` jobs live: the accounts database (SQLite `SqliteBatchStore`, Postgres
 * `PostgresBatchStore`, shared by replicas). A file's bytes are not here but in a directory (see the gateway's file
 * storage); a batch's input lines are copied here at creation so that replicas claim them one by one.
 * @see https://platform.openai.com/docs/api-reference/files
 * @see https://platform.openai.com/docs/api-reference/batch
 */
export interface BatchStore {
  /** Records an uploaded file (its bytes are already stored). */
  insertFile(file: StoredFile): Promise<void>;
  /** The file `id` of `owner`; undefined when there is none or another owner has it. */
  getFile(id: string, owner: string): Promise<StoredFile | undefined>;
  /** Files of `owner`, by `created_at` then id in `order`, after the file `after`, at most `limit`. */
  listFiles(query: FileListQuery): Promise<StoredFile[]>;
  /** Bytes of every file of `owner` (its quota). */
  fileBytes(owner: string): Promise<number>;
  /** Files whose `expires_at` (unix seconds) is at or before `now`, oldest first, at most `limit`. */
  expiredFiles(now: number, limit: number): Promise<StoredFile[]>;
  /** Deletes the file record `id` of `owner`; false when there was none. */
  deleteFile(id: string, owner: string): Promise<boolean>;
  /** Stores a new batch with its input lines (all `pending`), in one transaction. */
  insertBatch(batch: StoredBatch, lines: readonly BatchLineInput[]): Promise<void>;
  /** The batch `id` (of `owner` when given). */
  getBatch(id: string, owner?: string): Promise<StoredBatch | undefined>;
  /** Batches of `owner`, newest first, after the batch `after`, at most `limit`. */
  listBatches(owner: string, limit: number, after?: string): Promise<StoredBatch[]>;
  /**
   * Replaces the stored batch (same id) when its stored `status` is one of `expected` (compare-and-set, so that of
   * two replicas only one moves a batch on); true when it was replaced.
   */
  updateBatch(batch: StoredBatch, expected: readonly BatchStatus[]): Promise<boolean>;
  /** Ids of batches whose status is one of `statuses` (the work a runner looks for), oldest first. */
  batchesWithStatus(statuses: readonly BatchStatus[]): Promise<string[]>;
  /**
   * Claims up to `count` lines of batch `batchId` for `worker` until `leaseUntil` (unix ms): lines still `pending`, or
   * `running` with a lease that ended before `now` (a worker that died). Two callers never get the same line while its
   * lease lasts. Lines come in input order.
   */
  claimLines(batchId: string, worker: string, count: number, now: number, leaseUntil: number): Promise<ClaimedLine[]>;
  /** Stores the result of a claimed line and marks it done; false when `worker` no longer holds it (nothing written). */
  completeLine(batchId: string, index: number, worker: string, result: BatchLineResult): Promise<boolean>;
  /**
   * Marks done with `result` every line still `pending`, and every `running` one whose lease ended before `now` (its
   * worker died); lines running under a live lease are left to finish. Resolves with how many were marked.
   */
  failOpenLines(batchId: string, result: BatchLineResult, now: number): Promise<number>;
  /** Lines per state: `total`, `completed` (done, not failed), `failed` (done and failed), `open` (not done). */
  lineCounts(batchId: string): Promise<{ total: number; completed: number; failed: number; open: number }>;
  /** Done lines with `index` above `afterIndex`, in input order, at most `limit` (finalization pages through them). */
  doneLines(batchId: string, afterIndex: number, limit: number): Promise<DoneLine[]>;
  /**
   * Calls `listener` whenever a batch is created by any process sharing the store (Postgres: `LISTEN`/`NOTIFY`), so
   * that idle runners wake without polling; resolves with a function that stops it. Absent: only the process that
   * creates a batch learns of it (SQLite, one process).
   */
  onBatchCreated?(listener: () => void): Promise<() => void>;
  /** Removes the lines of a batch once its output files are written. */
  deleteLines(batchId: string): Promise<void>;
  close(): Promise<void>;
}

/** The purposes a file may be uploaded with (`batch_output` is the gateway's own). */
export type FilePurpose = 'assistants' | 'batch' | 'fine-tune' | 'vision' | 'user_data' | 'evals' | 'batch_output';

/** A file's metadata: OpenAI's File object plus its `owner` (a SHA-256 of the key that uploaded it). */
export interface StoredFile {
  /** `file-…`. */
  id: string;
  owner: string;
  /** Size, bytes. */
  bytes: number;
  /** Unix time, seconds. */
  created_at: number;
  /** Unix time, seconds; null when it never expires. */
  expires_at: number | null;
  filename: string;
  purpose: FilePurpose;
}

/** A page of files (see {@link BatchStore.listFiles}). */
export interface FileListQuery {
  owner: string;
  purpose?: string;
  /** Most rows, 1-10,001 (one more than a page, to know `has_more`). */
  limit: number;
  /** A file id: rows after it in `order`. */
  after?: string;
  order: 'asc' | 'desc';
}

/** The statuses of OpenAI's Batch object. */
export type BatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

/** A batch as stored: OpenAI's Batch object (`batch`) plus who owns and runs it. */
export interface StoredBatch {
  id: string;
  /** SHA-256 of the key that created it. */
  owner: string;
  /** The virtual key id that created it (`static` for a key from the config file): its budget and ledger rows. */
  key_id: string;
  /** Who runs it: `gateway` (line by line here) or a provider's own batch API (e.g. `openai`). */
  runner: string;
  /** The provider's batch id when `runner` is a provider. */
  upstream_id: string | null;
  status: BatchStatus;
  /** The Batch object as clients see it, `status` included. */
  batch: Record<string, unknown>;
}

/** One input line of a batch. */
export interface BatchLineInput {
  /** 0-based line number in the input file. */
  index: number;
  custom_id: string;
  /** The request body as JSON text. */
  body: string;
}

/** A line claimed by a worker. */
export interface ClaimedLine extends BatchLineInput {
  /** How many times it was claimed before (a worker died holding it). */
  attempts: number;
}

/**
 * How a line ended, as its output (or error) file line has it: `response` (`status_code`, `request_id`, `body`) for
 * an answer (an error answer included), or `error` (`code`, `message`) for a line that never got one. `failed` puts
 * it in the error file.
 */
export interface BatchLineResult {
  failed: boolean;
  response?: { status_code: number; request_id: string; body: unknown };
  error?: { code: string; message: string };
}

/** A finished line with its result. */
export interface DoneLine {
  index: number;
  custom_id: string;
  result: BatchLineResult;
}
