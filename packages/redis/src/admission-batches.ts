import {
  type LimitDecision,
  type LimitRequest,
  type LimitSubject,
  limitSubjects,
  requestSlot,
} from '@switchyard/accounts';

/** One call waiting for its admission in the next batch. */
export interface PendingAdmission {
  request: LimitRequest;
  /** The key's counters, then the request's scopes (see `limitSubjects`). */
  subjects: LimitSubject[];
  /** The concurrency slot the call takes, when a subject has a concurrency limit. */
  slot: string | undefined;
  resolve: (decision: LimitDecision | Promise<LimitDecision>) => void;
  reject: (error: unknown) => void;
}

/** The arguments of one `ACQUIRE_SCRIPT` call for a batch of admissions (see the script). */
export interface AdmissionCall {
  keys: string[];
  args: (string | number)[];
}

/** Options of {@link AdmissionBatches}. */
export interface AdmissionBatchesOptions {
  /** Sends one batch: its answers in order (one comma-separated string per call); rejects when Redis fails. */
  send: (call: AdmissionCall) => Promise<string[]>;
  /** Decides each call's outcome from its answer (see {@link admissionDecision}). */
  admitted: (admission: PendingAdmission, answer: string) => LimitDecision;
  /** What a call gets when its batch failed (Redis unreachable): a decision, or a rejection. */
  failed: (admission: PendingAdmission, error: unknown) => Promise<LimitDecision>;
  /** Names one of a subject's counters: `<prefix><kind>:<id>`. */
  key: (kind: string, id: string) => string;
  /** The key that tells when this Redis began counting (`<prefix>epoch`). */
  epochKey: string;
  /** USD below which a budget counts as exhausted (rounding tolerance). */
  epsilonUsd: number;
  /** How long a concurrency slot lives without a refresh, ms. */
  slotTtlMs: () => number;
  /** How long a budget window's counters are kept after it began, ms (0 = for ever). */
  windowTtlMs: (window: string, evictable?: boolean) => number;
}

/** Admissions that make a batch go at once rather than at the end of the turn. */
const MAX_BATCH = 500;

/** A whole number of tokens or requests as the script reads it ('' = none). */
function count(value: number | undefined): number | string {
  return value === undefined ? '' : Math.ceil(value);
}

/**
 * The admissions of {@link RedisLimiter}, batched: those of one event-loop turn go in one `ACQUIRE_SCRIPT` call (one
 * command, one promise and one reply for all), each call still getting its own answer. Redis applies them in the
 * order they were asked for, each all or nothing, so a batch is exactly as strict as one call after the other. A
 * subject's counters (a key's, a scope's) are named once per batch however many of its calls it holds.
 */
export class AdmissionBatches {
  readonly #options: AdmissionBatchesOptions;
  #pending: PendingAdmission[] = [];
  #timer: NodeJS.Immediate | undefined;

  constructor(options: AdmissionBatchesOptions) {
    this.#options = options;
  }

  /** Queues the call for the batch of this turn; resolves with its decision (see `Limiter.acquire`). */
  acquire(request: LimitRequest): Promise<LimitDecision> {
    return new Promise<LimitDecision>((resolve, reject) => {
      const subjects = limitSubjects(request);
      this.#pending.push({ request, subjects, slot: requestSlot(request), resolve, reject });
      if (this.#pending.length >= MAX_BATCH) this.#flush();
      else this.#timer ??= setImmediate(() => this.#flush());
    });
  }

  /** Sends every pending admission in one script call and hands each call its decision. */
  #flush(): void {
    clearImmediate(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    this.#options.send(this.#encode(batch)).then(
      (answers) => {
        for (let i = 0; i < batch.length; i++) {
          const admission = batch[i] as PendingAdmission;
          try {
            admission.resolve(this.#options.admitted(admission, answers[i] ?? ''));
          } catch (error) {
            admission.reject(error);
          }
        }
      },
      (error: unknown) => {
        for (const admission of batch) admission.resolve(this.#options.failed(admission, error));
      },
    );
  }

  /**
   * The script's keys and arguments for `batch`: each subject group's counters named once, then one argument per call
   * (its plan, and its slot after a `;` when it takes one).
   */
  #encode(batch: readonly PendingAdmission[]): AdmissionCall {
    const { key, epsilonUsd, windowTtlMs } = this.#options;
    const keys: string[] = [this.#options.epochKey];
    const args: (string | number)[] = [epsilonUsd, this.#options.slotTtlMs()];
    /** Subject id -> its group (index of its four keys) and the budget window they name. */
    const groups = new Map<string, { group: number; window: string }>();
    for (const { request, subjects, slot } of batch) {
      // The plan's fields joined once: one flat string, not a string per field appended.
      const fields = new Array<number | string>(1 + 10 * subjects.length);
      fields[0] = Math.max(0, Math.ceil(request.tokens));
      for (let i = 0; i < subjects.length; i++) {
        const subject = subjects[i] as LimitSubject;
        const { budget } = subject;
        const window = budget?.window ?? 'none';
        let known = groups.get(subject.id);
        if (known?.window !== window) {
          known = { group: (keys.length - 1) / 4, window };
          if (!groups.has(subject.id)) groups.set(subject.id, known);
          keys.push(
            key('rpm', subject.id),
            key('tpm', subject.id),
            key('spend', `${subject.id}:${window}`),
            key('slots', subject.id),
          );
        }
        const recent = i === 0 ? request.recent : subject.recent;
        const f = 1 + 10 * i;
        fields[f] = known.group;
        fields[f + 1] = subject.rpm ?? 0;
        fields[f + 2] = subject.tpm ?? 0;
        fields[f + 3] = budget ? budget.limitUsd : -1;
        fields[f + 4] = budget ? budget.reserveUsd : 0;
        fields[f + 5] = budget?.seedUsd ?? '';
        fields[f + 6] = budget ? windowTtlMs(budget.window, subject.evictable) : 0;
        fields[f + 7] = subject.concurrency ?? 0;
        fields[f + 8] = count(recent?.requests);
        fields[f + 9] = count(recent?.tokens);
      }
      const plan = fields.join(',');
      // One argument per call: the slot, when the call takes one, after the plan's numbers (which hold no `;`).
      args.push(slot === undefined ? plan : `${plan};${slot}`);
    }
    return { keys, args };
  }
}
