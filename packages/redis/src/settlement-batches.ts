import type { LimitSettlement, SettledBudget } from '@switchyard/accounts';
import { randomUUID } from 'node:crypto';
import type { FailureReporter } from './limits-unavailable.js';

/** One subject's part of a settlement batch. */
export interface PendingSettlement {
  id: string;
  tpm: number | null;
  /** Tokens to give back (reserved - used; negative when the call used more than it reserved). */
  delta: number;
  budget: { window: string; reservedUsd: number; costUsd: number } | null;
}

/** Sends one batch in one `SETTLE_SCRIPT` call under the batch id: each subject's spend after it (see the script). */
export type SendSettlements = (batchId: string, batch: readonly PendingSettlement[]) => Promise<string[]>;

/** Options of {@link SettlementBatches}. */
export interface SettlementBatchesOptions {
  send: SendSettlements;
  failures: FailureReporter;
  /** How long settlements wait to be sent together, ms (0: those of one event-loop turn, at its end). */
  settleEveryMs?: number;
  /** How long a batch Redis failed to take is sent again, ms; default 60,000. */
  settleRetryMs?: number;
}

/** The settlements of one batch: `written` resolves once they are sent, with the spend of each subject's window ('' = none). */
interface Batch {
  written: Promise<string[]>;
  resolve: (spent: string[]) => void;
}

function newBatch(): Batch {
  let resolve!: (spent: string[]) => void;
  const written = new Promise<string[]>((r) => (resolve = r));
  return { written, resolve };
}

/** A batch of settlements Redis did not take, waiting to be sent again. */
interface FailedBatch {
  /** The batch id (its marker in Redis): the same on every attempt. */
  id: string;
  batch: readonly PendingSettlement[];
  /** When it first failed, unix ms. */
  since: number;
  /** Wait before the next attempt, ms. */
  delayMs: number;
  timer?: NodeJS.Timeout;
}

/** First wait before a failed settlement batch is sent again, ms; it doubles up to {@link MAX_RETRY_MS}. */
const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 2_000;
/** Failed batches kept for a retry at most (memory bound during a long outage); later failures are reported lost. */
const MAX_RETRYING_BATCHES = 10_000;
/** Pending settlements that make a batch go at once rather than at the end of the turn. */
const MAX_BATCH = 500;

/** The subjects (the key, then each scope) a settlement changes; those with nothing to give back or add are left out. */
export function settlementParts(settlement: LimitSettlement): PendingSettlement[] {
  const parts: PendingSettlement[] = [];
  const delta = settlement.tokensReserved - settlement.tokensUsed;
  if (delta !== 0 || settlement.budget)
    parts.push({ id: settlement.keyId, tpm: settlement.tpm, delta, budget: settlement.budget });
  for (const s of settlement.scopes ?? []) {
    const part = s.tokensReserved - s.tokensUsed;
    if (part !== 0 || s.budget) parts.push({ id: s.id, tpm: s.tpm, delta: part, budget: s.budget });
  }
  return parts;
}

/** The budget windows among `parts` (sent from index `first` of a batch) with their spend after it (`spent`). */
function settledBudgets(parts: readonly PendingSettlement[], spent: readonly string[], first: number): SettledBudget[] {
  const settled: SettledBudget[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const value = spent[first + i];
    if (part?.budget && value !== undefined && value !== '')
      settled.push({ id: part.id, window: part.budget.window, spentUsd: Number(value), costUsd: part.budget.costUsd });
  }
  return settled;
}

/**
 * The settlements of {@link RedisLimiter}, batched: those of one event-loop turn (or of every `settleEveryMs`) go in one
 * script call, awaited by each caller. A batch Redis failed to take is sent again under the same id (applied at most
 * once) after 50 ms, doubling up to 2 s, for up to `settleRetryMs`; at most 10,000 batches wait at once.
 */
export class SettlementBatches {
  readonly #options: SettlementBatchesOptions;
  #pending: PendingSettlement[] = [];
  /** Resolved once the pending settlements are written. */
  #batch: Batch | undefined;
  #timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  /** Names this process's settlement batches (`<instance>:<n>`), so that a retried batch is applied at most once. */
  readonly #instance = randomUUID();
  #batches = 0;
  /** Failed settlement batches waiting to be sent again. */
  readonly #retrying = new Set<FailedBatch>();
  #closed = false;

  constructor(options: SettlementBatchesOptions) {
    this.#options = options;
  }

  /** How long a batch's marker must live in Redis, ms: as long as it may be sent again, and a minute more. */
  get markerTtlMs(): number {
    return this.#settleRetryMs + 60_000;
  }

  get #settleRetryMs(): number {
    return this.#options.settleRetryMs ?? 60_000;
  }

  /**
   * Queues the settlement for the next batch and resolves once that batch is written, with each budget window's spend
   * after it (none when the batch failed: reported, never rejected).
   */
  settle(settlement: LimitSettlement): Promise<SettledBudget[]> {
    const parts = settlementParts(settlement);
    if (parts.length === 0) return Promise.resolve([]);
    const first = this.#pending.length;
    for (const part of parts) this.#pending.push(part);
    this.#batch ??= newBatch();
    const written = this.#batch.written;
    if (this.#pending.length >= MAX_BATCH) void this.flush();
    else if (this.#timer === undefined) {
      const every = this.#options.settleEveryMs ?? 0;
      this.#timer =
        every > 0 ? setTimeout(() => void this.flush(), every).unref() : setImmediate(() => void this.flush());
    }
    return written.then((spent) => settledBudgets(parts, spent, first));
  }

  /** Sends every pending settlement now, in one script call; resolves once it is applied or has failed (then retried). */
  async flush(): Promise<void> {
    clearTimeout(this.#timer as NodeJS.Timeout | undefined);
    clearImmediate(this.#timer as NodeJS.Immediate | undefined);
    this.#timer = undefined;
    const batch = this.#pending;
    const done = this.#batch;
    this.#pending = [];
    this.#batch = undefined;
    if (batch.length === 0) return done?.resolve([]);
    const id = `${this.#instance}:${++this.#batches}`;
    let spent: string[] | undefined;
    try {
      spent = await this.#send(id, batch);
      if (!spent) this.#retry({ id, batch, since: Date.now(), delayMs: FIRST_RETRY_MS });
    } finally {
      done?.resolve(spent ?? []);
    }
  }

  /** Sends one batch: each subject's spend after it, or undefined when Redis failed (reported). */
  async #send(id: string, batch: readonly PendingSettlement[]): Promise<string[] | undefined> {
    try {
      return await this.#options.send(id, batch);
    } catch (error) {
      this.#options.failures.report(`Redis limits unavailable (${batch.length} settlement(s) to be sent again)`, error);
      return undefined;
    }
  }

  /** Schedules `failed` to be sent again after its delay; gives it up (reported) past `settleRetryMs`. */
  #retry(failed: FailedBatch): void {
    if (
      this.#closed ||
      Date.now() - failed.since > this.#settleRetryMs ||
      this.#retrying.size >= MAX_RETRYING_BATCHES
    ) {
      this.#options.failures.report(
        `Redis limits unavailable (${failed.batch.length} settlement(s) lost)`,
        new Error('settlement retries exhausted'),
      );
      return;
    }
    this.#retrying.add(failed);
    const timer = setTimeout(async () => {
      this.#retrying.delete(failed);
      if (!(await this.#send(failed.id, failed.batch)))
        this.#retry({ ...failed, delayMs: Math.min(MAX_RETRY_MS, failed.delayMs * 2) });
    }, failed.delayMs);
    timer.unref();
    failed.timer = timer;
  }

  /** Sends what is pending, and once more every batch still waiting for a retry; then stops retrying. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
    const waiting = [...this.#retrying];
    this.#retrying.clear();
    for (const failed of waiting) clearTimeout(failed.timer);
    await Promise.all(waiting.map((failed) => this.#send(failed.id, failed.batch)));
  }
}
