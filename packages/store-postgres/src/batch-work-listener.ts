import pg from 'pg';

/** The channel new batches are announced on (`NOTIFY switchyard_batch_work, '<batch id>'`). */
export const BATCH_WORK_CHANNEL = 'switchyard_batch_work';

/** Longest wait before a lost listening connection is opened again, ms. */
const MAX_RETRY_MS = 30_000;

/**
 * One dedicated connection (outside the pool, so it holds no idle timer) that `LISTEN`s on {@link BATCH_WORK_CHANNEL}
 * and calls every listener when a batch is created by any replica. A lost connection (Postgres restarted) is opened
 * again after 1 s, doubling to 30 s; a timer is held only while it is lost. Failures go to `onError`.
 * @see https://www.postgresql.org/docs/current/sql-listen.html
 */
export class BatchWorkListener {
  readonly #listeners = new Set<() => void>();
  #client?: pg.Client;
  #retryMs = 1_000;
  #retry?: NodeJS.Timeout;
  #closed = false;

  constructor(
    readonly connectionString: string,
    readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Calls `listener` whenever a batch is created; resolves with a function that stops it. */
  async add(listener: () => void): Promise<() => void> {
    this.#listeners.add(listener);
    if (!this.#client) await this.#connect();
    return () => this.#listeners.delete(listener);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'switchyard-batch-work',
    });
    this.#client = client;
    const lost = (error?: unknown) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      if (error) this.onError(error);
      client.end().catch(() => {});
      if (this.#closed) return;
      this.#retry = setTimeout(() => {
        this.#retry = undefined;
        this.#connect().catch(() => {});
      }, this.#retryMs);
      this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => {
      for (const listener of this.#listeners) listener();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${BATCH_WORK_CHANNEL}`);
      this.#retryMs = 1_000;
      // Batches created while the connection was lost are found by the listeners' next look.
      for (const listener of this.#listeners) listener();
    } catch (error) {
      lost(error);
    }
  }

  /** Closes the connection and stops retrying. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}
