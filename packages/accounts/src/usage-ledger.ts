import type { AccountStore } from './account-store.js';
import type { UsageRow } from './usage-row.js';

/** Options of {@link UsageLedger}. */
export interface UsageLedgerOptions {
  /** Flush interval, ms. Default 1,000. */
  flushMs?: number;
  /** Rows per store call; reaching it flushes at once. Default 500. */
  maxBatch?: number;
  /**
   * Most rows held while the store cannot be written (e.g. Postgres unreachable). Rows arriving past it are dropped
   * and counted. Default 100,000.
   */
  maxBuffered?: number;
  /** Longest wait between retries of a failed write, ms (retries back off from `flushMs`). Default 10,000. */
  maxRetryMs?: number;
  /** A failed write (its rows are kept and retried). */
  onError?: (error: unknown) => void;
  /** Rows lost because the buffer was full: `count` since the last report, `total` since start. Reported once per flush attempt. */
  onDropped?: (count: number, total: number) => void;
}

/**
 * Writes ledger rows off the request path: rows are buffered and appended to the store every `flushMs` (ms) or when
 * `maxBatch` rows are waiting, one store call per batch. A failed write keeps its rows and is retried by itself with
 * backoff, so that no row is lost while the store is away, up to `maxBuffered` rows; past that, new rows are dropped
 * and the loss is reported (with a count) through `onDropped`. The timers do not keep the process alive.
 */
export class UsageLedger {
  #buffer: UsageRow[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #queued: Promise<void> | undefined;
  #failures = 0;
  #dropped = 0;
  #droppedTotal = 0;
  readonly #flushMs: number;
  readonly #maxBatch: number;
  readonly #maxBuffered: number;
  readonly #maxRetryMs: number;

  constructor(
    private readonly store: AccountStore,
    private readonly options: UsageLedgerOptions = {},
  ) {
    this.#flushMs = options.flushMs ?? 1000;
    this.#maxBatch = options.maxBatch ?? 500;
    this.#maxBuffered = options.maxBuffered ?? 100_000;
    this.#maxRetryMs = options.maxRetryMs ?? 10_000;
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.#buffer.length;
  }

  /** Rows dropped since start because the buffer was full. */
  get dropped(): number {
    return this.#droppedTotal;
  }

  /** Queues one row (dropped and counted when `maxBuffered` rows are already waiting). */
  record(row: UsageRow): void {
    if (this.#buffer.length >= this.#maxBuffered) {
      this.#dropped++;
      this.#droppedTotal++;
      this.#timer ??= setTimeout(() => void this.flush(), this.#flushMs).unref();
      return;
    }
    this.#buffer.push(row);
    if (this.#buffer.length >= this.#maxBatch && this.#failures === 0) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), this.#flushMs).unref();
  }

  /**
   * Writes every queued row now; resolves when they are stored, or when a write failed (the rows stay queued and a
   * retry is scheduled). Never rejects.
   */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#queued) {
      const run = this.#flushing.then(() => {
        this.#queued = undefined;
        return this.#write();
      });
      this.#queued = run;
      this.#flushing = run;
    }
    return this.#queued;
  }

  async #write(): Promise<void> {
    this.#reportDropped();
    while (this.#buffer.length > 0) {
      const rows = this.#buffer.slice(0, this.#maxBatch);
      try {
        await this.store.appendUsage(rows);
      } catch (error) {
        this.#failures++;
        this.options.onError?.(error);
        clearTimeout(this.#timer);
        const wait = Math.min(this.#maxRetryMs, this.#flushMs * 2 ** Math.min(this.#failures - 1, 10));
        this.#timer = setTimeout(() => void this.flush(), wait).unref();
        return;
      }
      this.#failures = 0;
      this.#buffer.splice(0, rows.length);
    }
  }

  #reportDropped(): void {
    if (this.#dropped === 0) return;
    const count = this.#dropped;
    this.#dropped = 0;
    this.options.onDropped?.(count, this.#droppedTotal);
  }
}
