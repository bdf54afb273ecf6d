import type { Files } from './files.js';

/** Longest delay `setTimeout` takes (about 24.8 days), ms; a later expiry is looked at again then. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Deletes expired files when they expire, holding one timer only while a file that expires is known: set for the
 * earliest expiry (read from the store at {@link start} and after each sweep, moved earlier by {@link expiresAt} when
 * a file is uploaded), none when no file expires. Each replica schedules the files it uploads and, at start, the
 * earliest of all. Failures go to `onError` and are retried a minute later.
 */
export class FileExpirySweep {
  #timer?: NodeJS.Timeout;
  /** When the timer fires, unix ms. */
  #at = Number.POSITIVE_INFINITY;
  #closed = false;

  constructor(
    readonly files: Files,
    readonly onError: (error: unknown) => void,
  ) {}

  /** Schedules the earliest expiry in the store. */
  async start(): Promise<void> {
    await this.#scheduleNext().catch((error: unknown) => this.#failed(error));
  }

  /** Makes sure files expiring at `unixS` (unix seconds; null: never) are deleted then. */
  expiresAt(unixS: number | null): void {
    if (unixS !== null) this.#schedule(unixS * 1000);
  }

  /** True while a timer is held (some file expires). */
  get scheduled(): boolean {
    return this.#timer !== undefined;
  }

  /** Stops; no timer is left. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(atMs: number): void {
    if (this.#closed || atMs >= this.#at) return;
    clearTimeout(this.#timer);
    this.#at = atMs;
    const delay = Math.min(Math.max(atMs - Date.now(), 0), MAX_DELAY_MS);
    this.#timer = setTimeout(() => void this.#sweep(), delay).unref();
  }

  async #sweep(): Promise<void> {
    this.#timer = undefined;
    this.#at = Number.POSITIVE_INFINITY;
    try {
      while ((await this.files.sweepExpired()) > 0 && !this.#closed);
      await this.#scheduleNext();
    } catch (error) {
      this.#failed(error);
    }
  }

  /** Schedules the earliest expiry still in the store (the first of all files ordered by `expires_at`). */
  async #scheduleNext(): Promise<void> {
    const [next] = await this.files.store.expiredFiles(Number.MAX_SAFE_INTEGER, 1);
    if (next?.expires_at != null) this.#schedule(next.expires_at * 1000);
  }

  #failed(error: unknown): void {
    this.onError(error);
    this.#schedule(Date.now() + 60_000);
  }
}
