import { Worker } from 'node:worker_threads';
import type { SegmentCount } from './segment-text.js';

/** A text to count, sent to a worker: `budgetMs` is the time it may spend counting (ms). */
export interface TokenizeJob {
  id: number;
  text: string;
  budgetMs: number;
}

/** A worker's answer: the tokens of the first `chars` characters of the job's text. */
export interface TokenizeResult extends SegmentCount {
  id: number;
}

/** A worker's first message, once the tokenizer is loaded. */
export interface TokenizerReady {
  ready: true;
}

/** The size, time budget and queue bound of a {@link TokenizerPool}. */
export interface TokenizerPoolOptions {
  /** The worker script (the built `tokenize-worker.js`). */
  workerUrl: URL;
  /** Worker threads, started on first use. */
  size: number;
  /** Time a worker may count one text (ms); it then answers the prefix it counted. */
  budgetMs: number;
  /** Characters waiting for a worker at most; a text that would pass it is not queued. */
  maxQueuedChars: number;
}

interface Pending {
  id: number;
  text: string;
  resolve(count: SegmentCount | undefined): void;
}

/** Extra time (ms) a worker gets past a job's budget before it is taken for stuck, terminated and replaced. */
const STUCK_GRACE_MS = 5_000;

/**
 * A small pool of worker threads that count tokens off the event loop's thread, so that no text, however long or
 * adversarial, holds the gateway's event loop. Each text gets a time budget in a worker; a worker that passes it answers
 * the prefix it counted, and a worker silent for {@link STUCK_GRACE_MS} more is terminated and replaced. Texts wait for
 * a free worker in a queue bounded in characters.
 * An idle worker is `unref`'d: it never keeps the process alive.
 */
export class TokenizerPool {
  private readonly idle: Worker[] = [];
  private readonly starting = new Set<Worker>();
  private readonly running = new Map<Worker, { job: Pending; timer: NodeJS.Timeout }>();
  private readonly queue: Pending[] = [];
  private readonly warmed: (() => void)[] = [];
  private queuedChars = 0;
  private nextId = 0;

  constructor(private readonly options: TokenizerPoolOptions) {}

  /**
   * Counts `text`'s tokens in a worker.
   * @returns the tokens of the prefix counted within the budget (all of it for ordinary text), or `undefined` when
   * nothing could be counted: the queue is full, or a worker failed (or could not start). Never rejects.
   */
  count(text: string): Promise<SegmentCount | undefined> {
    if (this.queuedChars + text.length > this.options.maxQueuedChars) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, text, resolve });
      this.queuedChars += text.length;
      this.pump();
    });
  }

  /**
   * Starts every worker of the pool now (loading the tokenizer takes a worker about 2-3 s of its own thread), so that
   * the first text counted does not wait for it. Returns at once a promise that resolves (never rejects) once every
   * worker is ready or has failed; the workers never keep the process alive while they load or idle. Workers already
   * started count.
   */
  warm(): Promise<void> {
    while (this.starting.size + this.running.size + this.idle.length < this.options.size) this.spawn().unref();
    if (this.starting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.warmed.push(resolve));
  }

  /**
   * Whether the pool has a worker ready to count, once no worker is still starting; false at once when none was
   * started (nothing warmed it, nothing was counted yet). Starts nothing. Never rejects.
   */
  async isWarm(): Promise<boolean> {
    if (this.starting.size > 0) await new Promise<void>((resolve) => this.warmed.push(resolve));
    return this.idle.length + this.running.size > 0;
  }

  /** Resolves the callers of {@link warm} once no worker is starting any more (ready, or failed). */
  private settleWarm(): void {
    if (this.starting.size > 0) return;
    for (const resolve of this.warmed.splice(0)) resolve();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop();
      if (!worker) {
        if (this.starting.size + this.running.size < this.options.size) this.spawn();
        // A text is waiting: workers still loading (warmed, unref'd) must keep the process alive until it is counted.
        for (const starting of this.starting) starting.ref();
        return;
      }
      const job = this.queue.shift() as Pending;
      this.queuedChars -= job.text.length;
      const { budgetMs } = this.options;
      const timer = setTimeout(() => this.fail(worker), budgetMs + STUCK_GRACE_MS).unref();
      this.running.set(worker, { job, timer });
      worker.ref();
      worker.postMessage({ id: job.id, text: job.text, budgetMs } satisfies TokenizeJob);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(this.options.workerUrl);
    this.starting.add(worker);
    worker.on('message', (message: TokenizeResult | TokenizerReady) => {
      if ('ready' in message) {
        this.starting.delete(worker);
        this.release(worker);
        this.settleWarm();
        return;
      }
      const run = this.running.get(worker);
      if (!run || run.job.id !== message.id) return;
      clearTimeout(run.timer);
      this.running.delete(worker);
      this.release(worker);
      run.job.resolve({ tokens: message.tokens, chars: message.chars });
    });
    worker.on('error', () => this.fail(worker));
    worker.on('exit', () => this.fail(worker));
    return worker;
  }

  /** Makes a worker idle (it no longer keeps the process alive) and gives it the next text. */
  private release(worker: Worker): void {
    worker.unref();
    this.idle.push(worker);
    this.pump();
  }

  /**
   * Drops a worker that failed, exited or is stuck; its text gets `undefined`. A worker that failed before it was ready
   * cannot count anything (e.g. its script is missing): every queued text gets `undefined` too.
   */
  private fail(worker: Worker): void {
    const run = this.running.get(worker);
    this.running.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    if (run) {
      clearTimeout(run.timer);
      run.job.resolve(undefined);
    }
    if (this.starting.delete(worker)) {
      for (const job of this.queue.splice(0)) job.resolve(undefined);
      this.queuedChars = 0;
      this.settleWarm();
    }
    void worker.terminate();
    this.pump();
  }
}
