import type { AccountStore } from './account-store.js';
import type { UsageRow } from './usage-row.js';

/**
 * Writes ledger rows off the request path: rows are buffered and appended to the store in one transaction every
 * `flushMs` (ms) or when `maxBatch` rows are waiting. The timer does not keep the process alive. A failed write is
 * reported through `onError` and its rows are kept for the next flush.
 */
export class UsageLedger {
  #buffer: UsageRow[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: AccountStore,
    private readonly flushMs = 1000,
    private readonly maxBatch = 500,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Queues one row. */
  record(row: UsageRow): void {
    this.#buffer.push(row);
    if (this.#buffer.length >= this.maxBatch) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
  }

  /** Writes every queued row now; resolves when they are stored. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const rows = this.#buffer;
    this.#buffer = [];
    this.#flushing = this.#flushing.then(async () => {
      if (rows.length === 0) return;
      try {
        await this.store.appendUsage(rows);
      } catch (error) {
        this.#buffer.unshift(...rows);
        this.onError(error);
      }
    });
    return this.#flushing;
  }
}
