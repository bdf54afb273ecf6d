import { hostname } from 'node:os';
import type { BatchLineResult, BatchStatus, ClaimedLine, StoredBatch } from '@switchyard/accounts';
import { type Gateway, GatewayError } from '@switchyard/core';
import type { ResponsesFrontDoor } from '@switchyard/front-door-responses';
import type { Files } from '../files/files.js';
import { newId } from '../files/new-id.js';
import { type BatchEndpoint, isBatchEndpoint } from './batch-endpoints.js';
import { withStatus } from './batch-object.js';
import { executeBatchLine } from './execute-batch-line.js';
import type { NativeBatches } from './native-batches.js';
import { writeBatchOutput } from './finalize-batch.js';
import { Semaphore } from './semaphore.js';

/** Settings of a {@link BatchRunner} (config `batches`). */
export interface BatchRunnerSettings {
  /** Lines at once per deployment (and per batch) in this process. */
  concurrency: number;
  /** No line starts while more live requests than this are in flight in this process. */
  yieldAbove: number;
  /** How long a claimed line is held before another worker may take it over, ms. */
  leaseMs: number;
  /** How often the store is asked for work, ms. */
  pollMs: number;
}

/** What a {@link BatchRunner} needs. */
export interface BatchRunnerOptions {
  files: Files;
  gateway: Gateway;
  responses: ResponsesFrontDoor;
  secrets: readonly string[];
  settings: BatchRunnerSettings;
  /** The caller a batch's lines run as (with accounts: the principal of its `key_id`); may throw 401. */
  callerOf: (batch: StoredBatch) => Promise<unknown>;
  /** Live requests in flight in this process. */
  liveRequests: () => number;
  /** Batches run by a provider's own batch API (polled here). */
  native?: NativeBatches;
  /** Failures of the runner itself (the store unreachable...). */
  onError: (error: unknown) => void;
}

/** What an open line ends with when its batch is cancelled or expires before it ran. */
const UNRUN: Partial<Record<BatchStatus, BatchLineResult>> = {
  cancelled: {
    failed: true,
    error: { code: 'batch_cancelled', message: 'The batch was cancelled before this request ran.' },
  },
  expired: {
    failed: true,
    error: {
      code: 'batch_expired',
      message: 'This request could not be executed before the completion window expired.',
    },
  },
};

/**
 * Runs the gateway's own batches: every `pollMs` (and whenever a line ends) it asks the store for batches in progress,
 * claims their open lines (a lease of `leaseMs`; claims are atomic in the store, so replicas and workers never run a
 * line twice while it is held) and runs each through the normal gateway call path, at most `concurrency` at once per
 * deployment and per batch, none while this process has more than `yieldAbove` live requests in flight (live traffic
 * comes first). A batch whose lines are all done is finalized (output and error files written) by the one worker
 * that moves it to `finalizing`. Cancelled and expired batches get their open lines failed (`batch_cancelled`,
 * `batch_expired`); a line refused 429 `insufficient_quota` (the key's budget is spent) fails every open line of its
 * batch with `insufficient_quota`. A restarted gateway picks up where the store says it stopped: done lines are never
 * run again; lines held by a worker that died are run again once their lease has ended.
 */
export class BatchRunner {
  readonly worker = `${hostname()}-${process.pid}-${newId('').slice(12)}`;
  readonly #options: BatchRunnerOptions;
  readonly #deployments = new Map<string, Semaphore>();
  /** Lines running here, per batch id. */
  readonly #running = new Map<string, number>();
  readonly #tasks = new Set<Promise<void>>();
  #stopped = false;
  #loop?: Promise<void>;
  #wake?: () => void;
  #timer?: NodeJS.Timeout;
  /** Set by {@link wake}: look again before going idle. */
  #again = false;
  #unsubscribe?: () => void;

  constructor(options: BatchRunnerOptions) {
    this.#options = options;
  }

  /**
   * Starts looking for work: one look now (a restarted gateway resumes its batches), then every `pollMs` while there is
   * work; idle, it holds no timer and wakes on {@link wake} (a batch created here) or when the store announces a batch
   * created by another process (`BatchStore.onBatchCreated`).
   */
  async start(): Promise<void> {
    this.wake();
    this.#unsubscribe = await this.#options.files.store.onBatchCreated?.(() => this.wake());
  }

  /** Stops claiming lines and resolves once the lines running here have ended and been stored. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    clearTimeout(this.#timer);
    this.#wake?.();
    await this.#loop;
    await Promise.allSettled([...this.#tasks]);
  }

  /** Looks for work now rather than at the next poll (and starts polling again when idle). */
  wake(): void {
    if (this.#stopped) return;
    this.#again = true;
    if (this.#loop) this.#wake?.();
    else
      this.#loop = this.#run().finally(() => {
        this.#loop = undefined;
        if (this.#again) this.wake(); // woken between the last look and going idle
      });
  }

  /** True while the runner polls (there is work); false when idle, holding no timer. */
  get polling(): boolean {
    return this.#loop !== undefined;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      this.#again = false;
      const busy = await this.tick().catch((error: unknown) => {
        this.#options.onError(error);
        return true; // the store failed: look again at the next poll
      });
      if (this.#stopped || (!busy && !this.#again && this.#tasks.size === 0)) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        this.#timer = setTimeout(resolve, this.#options.settings.pollMs);
      });
      clearTimeout(this.#timer);
      this.#wake = undefined;
    }
  }

  /** One pass over the batches in progress or cancelling; resolves true when there are any (work left). */
  async tick(): Promise<boolean> {
    const { store } = this.#options.files;
    const ids = await store.batchesWithStatus(['in_progress', 'cancelling']);
    for (const id of ids) {
      if (this.#stopped) break;
      const batch = await store.getBatch(id);
      if (batch?.runner === 'gateway') await this.#advance(batch);
      else if (batch) await this.#options.native?.advance(batch).catch(this.#options.onError);
    }
    return ids.length > 0;
  }

  async #advance(batch: StoredBatch): Promise<void> {
    const { store } = this.#options.files;
    const { settings } = this.#options;
    const expiresAt =
      typeof batch.batch.expires_at === 'number' ? batch.batch.expires_at * 1000 : Number.POSITIVE_INFINITY;
    const ending: BatchStatus | undefined =
      batch.status === 'cancelling' ? 'cancelled' : Date.now() >= expiresAt ? 'expired' : undefined;
    if (ending) {
      // Lines running (here or on another worker) finish; the others fail.
      await store.failOpenLines(batch.id, UNRUN[ending] as BatchLineResult, Date.now());
      if (!this.#running.get(batch.id) && (await store.lineCounts(batch.id)).open === 0)
        await this.#finalize(batch, ending);
      return;
    }
    if (this.#options.liveRequests() > settings.yieldAbove) return;
    const free = settings.concurrency - (this.#running.get(batch.id) ?? 0);
    if (free <= 0) return;
    const now = Date.now();
    const lines = await store.claimLines(batch.id, this.worker, free, now, now + settings.leaseMs);
    if (lines.length === 0) {
      if (!this.#running.get(batch.id) && (await store.lineCounts(batch.id)).open === 0)
        await this.#finalize(batch, 'completed');
      return;
    }
    for (const line of lines) this.#start(batch, line);
  }

  #start(batch: StoredBatch, line: ClaimedLine): void {
    this.#running.set(batch.id, (this.#running.get(batch.id) ?? 0) + 1);
    const task = this.#runLine(batch, line)
      .catch(this.#options.onError)
      .finally(() => {
        this.#running.set(batch.id, (this.#running.get(batch.id) ?? 1) - 1);
        if (this.#running.get(batch.id) === 0) this.#running.delete(batch.id);
        this.#tasks.delete(task);
        this.wake();
      });
    this.#tasks.add(task);
  }

  /** The semaphore of the deployment that serves `model` first (`provider/upstream model`). */
  #deployment(model: unknown): Semaphore {
    let key = 'unknown';
    try {
      const target = this.#options.gateway.router.resolve(String(model));
      key = `${target.provider}/${target.upstreamModel}`;
    } catch {
      // An unknown model fails fast (404) in its own queue.
    }
    let semaphore = this.#deployments.get(key);
    if (!semaphore) this.#deployments.set(key, (semaphore = new Semaphore(this.#options.settings.concurrency)));
    return semaphore;
  }

  async #runLine(batch: StoredBatch, line: ClaimedLine): Promise<void> {
    const { files, gateway, responses, secrets } = this.#options;
    const endpoint = batch.batch.endpoint;
    if (!isBatchEndpoint(endpoint)) throw new Error(`batch ${batch.id} has an unknown endpoint`);
    const model = (JSON.parse(line.body) as { model?: unknown }).model;
    const semaphore = this.#deployment(model);
    await semaphore.acquire();
    let result: BatchLineResult;
    const requestId = `batch_req_${batch.id.slice(6)}_${line.index}`;
    try {
      const caller = await this.#options.callerOf(batch);
      result = await executeBatchLine(
        { gateway, responses, owner: batch.owner, secrets },
        endpoint as BatchEndpoint,
        line.body,
        { caller, requestId, labels: { batch_id: batch.id } },
      );
    } catch (error) {
      const failure = GatewayError.isInstance(error)
        ? error
        : new GatewayError({
            status: 500,
            type: 'server_error',
            message: 'The gateway failed to run this request.',
            cause: error,
          });
      result = {
        failed: true,
        response: { status_code: failure.status, request_id: requestId, body: failure.toJSON() },
      };
    } finally {
      semaphore.release();
    }
    await files.store.completeLine(batch.id, line.index, this.worker, result);
    const code = (result.response?.body as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (result.failed && result.response?.status_code === 429 && code === 'insufficient_quota') {
      await files.store.failOpenLines(
        batch.id,
        {
          failed: true,
          error: { code: 'insufficient_quota', message: "The key's budget was spent before this request ran." },
        },
        Date.now(),
      );
    }
  }

  /** Moves the batch to `finalizing` (only one worker succeeds), writes its files, and ends it with `status`. */
  async #finalize(batch: StoredBatch, status: BatchStatus): Promise<void> {
    const { files } = this.#options;
    const finalizing: StoredBatch = { ...batch, status: 'finalizing', batch: withStatus(batch.batch, 'finalizing') };
    if (!(await files.store.updateBatch(finalizing, [batch.status]))) return;
    const output = await writeBatchOutput(files, finalizing);
    const done: StoredBatch = {
      ...finalizing,
      status,
      batch: withStatus(finalizing.batch, status, {
        output_file_id: output.output_file_id,
        error_file_id: output.error_file_id,
        request_counts: output.counts,
        usage: output.usage,
      }),
    };
    await files.store.updateBatch(done, ['finalizing']);
    await files.store.deleteLines(batch.id);
  }
}
