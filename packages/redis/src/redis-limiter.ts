import {
  type LimitDecision,
  type Limiter,
  type LimitRequest,
  type LimitSettlement,
  type LimitSubject,
  MemoryLimiter,
  type SettledBudget,
} from '@switchyard/accounts';
import type { Redis } from 'ioredis';
import { AdmissionBatches, type PendingAdmission } from './admission-batches.js';
import { REFRESH_SLOTS_SCRIPT, TURN_SCRIPT } from './limit-scripts.js';
import { type FailureReporter, limitsUnavailableError, type RedisFailureMode } from './limits-unavailable.js';
import { type PendingSettlement, SettlementBatches } from './settlement-batches.js';
import { TurnScriptCalls } from './turn-script-calls.js';

/** Options of {@link RedisLimiter}. */
export interface RedisLimiterOptions {
  /** Prefix of every key, e.g. `switchyard:`. */
  keyPrefix: string;
  /** `open` admits calls while Redis fails (unlimited); `closed` throws 503 `limits_unavailable`. */
  onError: RedisFailureMode;
  /** Where failures are reported (at most once a minute). */
  failures: FailureReporter;
  /**
   * How long settlements wait to be sent together, in one round trip for all, ms. Default 0: those of one event-loop
   * turn go together at its end, so that a call's reservation is settled before its answer ends (a larger value delays
   * the end of every answer by up to that long).
   */
  settleEveryMs?: number;
  /**
   * How long a concurrency slot lives in Redis without a refresh, ms. Slots of calls in flight are refreshed every
   * third of it, so only the slots of a process that died expire (after at most this long). Default 30,000.
   */
  slotTtlMs?: number;
  /**
   * How many replicas share this Redis, as its heartbeat last counted them (undefined when unknown): while Redis is
   * unreachable with `onError: open`, each replica enforces limit / replicas of every rpm, tpm and concurrency limit.
   */
  replicas?: () => number | undefined;
  /**
   * How long a settlement batch Redis failed to take is sent again, ms (after 50 ms, doubling up to 2 s); default
   * 60,000. Past it the batch is reported lost (its budget reservations then stay until the window ends).
   */
  settleRetryMs?: number;
}

const BUDGET_EPSILON_USD = 1e-9;
const DAY_MS = 86_400_000;

/**
 * How long a budget window's counters are kept after it began: two days, eight days, 32 days, or for ever (`total`);
 * a week for the `total` windows of scopes keyed by what clients send (end users, sessions): an expired window is
 * seeded from the ledger again, so this bounds Redis's memory without losing spend.
 */
function windowTtlMs(window: string, evictable = false): number {
  if (window.startsWith('day:')) return 2 * DAY_MS;
  if (window.startsWith('week:')) return 8 * DAY_MS;
  if (window.startsWith('month:')) return 32 * DAY_MS;
  return evictable ? 7 * DAY_MS : 0;
}

type Commands = {
  switchyardRefreshSlots(numKeys: number, ...args: (string | number)[]): Promise<number>;
  /** ioredis flattens each list argument into the command's arguments. */
  switchyardTurn(numKeys: number, ...parts: (string | number)[][]): Promise<[string[], string[]]>;
};

/** The scope a refusal or a `seed` answer names: `subjects[index - 1]` for an index above 1 (the key's own: none). */
function scopeOf(subjects: readonly LimitSubject[], index: number): { scope?: string } {
  return index > 1 ? { scope: subjects[index - 1]?.id } : {};
}

/**
 * The {@link Limiter} shared by every replica, on Redis: the admissions of one event-loop turn in one atomic Lua script
 * call (one round trip; each call all or nothing, in order), with the settlements of that turn in the same call
 * (`TURN_SCRIPT`, settlements first), awaited before the answer ends (so a request costs about two round trips, and a client's next call, on any replica, sees its settled spend and tokens; on a
 * `SwitchyardRedis` connection the commands of one turn, every call's, share one socket write). Counters:
 * `<prefix>rpm:<key id>`, `<prefix>tpm:<key id>` (token buckets), `<prefix>spend:<key id>:<window>` (settled and
 * reserved USD of a budget window, rebuilt from the ledger when missing) and `<prefix>slots:<key id>` (concurrency
 * slots of calls in flight: a sorted set scored by expiry, taken in the admission script, removed with `ZREM` when the
 * call ends, refreshed while it runs, so that a dead process's slots expire after `slotTtlMs`). Tolerance is the in-process one (see
 * `Limiter`) and does not grow with the number of replicas. While Redis fails, `onError` decides (see options): with
 * `open` each replica counts its share of the limits in its own memory (see `replicas`). A Redis that comes back
 * empty rebuilds each key's and scope's (team, organisation, end user, session) buckets from the ledger's last minute
 * (`<prefix>epoch` tells when it began counting).
 * @see https://redis.io/docs/latest/commands/eval/
 */
export class RedisLimiter implements Limiter {
  readonly #client: Redis & Commands;
  readonly #options: RedisLimiterOptions;
  readonly #settlements: SettlementBatches;
  readonly #admissions: AdmissionBatches;
  /** The settlement batch and the admission batch of a turn, sent in one script call. */
  readonly #turn: TurnScriptCalls;
  /** Slots held by calls in flight in this process: slot id -> the subjects (key, scopes) it is held in. */
  readonly #slots = new Map<string, string[]>();
  /** Counts this replica's share of the limits while Redis is unreachable (see {@link RedisLimiter.acquire}). */
  #local = new MemoryLimiter(Date.now, { seedRecent: true });
  #down = false;
  #refresher: NodeJS.Timeout | undefined;

  constructor(client: Redis, options: RedisLimiterOptions) {
    client.defineCommand('switchyardRefreshSlots', { lua: REFRESH_SLOTS_SCRIPT });
    client.defineCommand('switchyardTurn', { lua: TURN_SCRIPT });
    this.#client = client as Redis & Commands;
    this.#options = options;
    this.#turn = new TurnScriptCalls((numKeys, parts) => this.#client.switchyardTurn(numKeys, ...parts));
    this.#settlements = new SettlementBatches({
      send: (id, batch) => this.#send(id, batch),
      failures: options.failures,
      settleEveryMs: options.settleEveryMs,
      settleRetryMs: options.settleRetryMs,
    });
    this.#admissions = new AdmissionBatches({
      send: ({ keys, args }) => this.#turn.acquire(keys, args),
      admitted: (admission, answer) => this.#admitted(admission, answer),
      failed: (admission, error) => this.#failed(admission, error),
      key: (kind, id) => this.#key(kind, id),
      epochKey: `${options.keyPrefix}epoch`,
      epsilonUsd: BUDGET_EPSILON_USD,
      slotTtlMs: () => this.#slotTtlMs,
      windowTtlMs,
    });
  }

  #key(kind: string, id: string): string {
    return `${this.#options.keyPrefix}${kind}:${id}`;
  }

  /**
   * Checks and takes atomically (see `Limiter.acquire`). The admissions of one event-loop turn go to Redis together,
   * in one script call (see {@link AdmissionBatches}); each gets its own decision.
   */
  acquire(request: LimitRequest): Promise<LimitDecision> {
    return this.#admissions.acquire(request);
  }

  /** What Redis is down does to a call (see `onError`): 503 `limits_unavailable`, or this replica's share. */
  #failed(admission: PendingAdmission, error: unknown): Promise<LimitDecision> {
    this.#options.failures.report('Redis limits unavailable', error);
    if (this.#options.onError === 'closed') return Promise.reject(limitsUnavailableError());
    this.#down = true;
    return this.#acquireLocally(admission.request);
  }

  /** The decision of one call from its answer in the batch (see `ACQUIRE_SCRIPT`). */
  #admitted({ subjects, slot }: PendingAdmission, answer: string): LimitDecision {
    if (this.#down) {
      // Redis is back: the local counters of the outage are dropped (a later outage seeds new ones from the ledger).
      this.#down = false;
      this.#local = new MemoryLimiter(Date.now, { seedRecent: true });
    }
    // Module functions, not closures: nothing made per call but the reply's fields and the decision.
    const reply = answer.split(',');
    if (reply[0] === 'seed')
      return {
        ok: false,
        reason: 'seed',
        what: reply[1] === 'recent' ? 'recent' : 'spend',
        ...scopeOf(subjects, Number(reply[2])),
      };
    const requestsRemaining = Number(reply[2]);
    const tokensRemaining = Number(reply[4]);
    const state = {
      requestsRemaining: requestsRemaining < 0 ? undefined : requestsRemaining,
      requestsResetMs: Number(reply[3]),
      tokensRemaining: tokensRemaining < 0 ? undefined : tokensRemaining,
      tokensResetMs: Number(reply[5]),
    };
    if (reply[0] === 'ok') {
      if (slot)
        this.#hold(
          slot,
          subjects.filter((s) => s.concurrency).map((s) => s.id),
        );
      return { ok: true, state };
    }
    const reason = reply[0] as 'requests' | 'tokens' | 'budget' | 'concurrency';
    return {
      ok: false,
      reason,
      state,
      retryAfterMs: Number(reply[6]),
      ...(reason === 'budget' && { budget: { spentUsd: Number(reply[7]), reservedUsd: Number(reply[8]) } }),
      ...scopeOf(subjects, Number(reply[1])),
    };
  }

  /**
   * While Redis is unreachable (`onError: open`): this replica's share of the key's limits, counted in this process.
   * rpm, tpm and concurrency are divided by the replicas Redis last counted (see {@link RedisLimiterOptions.replicas};
   * the whole limit when unknown), rounded down, at least 1; the buckets start at that share less the share of what the
   * ledger says the key used in the last minute (a `seed` answer asks for it); a budget is checked against the
   * ledger's spend of its window and what this replica spends meanwhile.
   */
  async #acquireLocally(request: LimitRequest): Promise<LimitDecision> {
    const replicas = Math.max(1, this.#options.replicas?.() ?? 1);
    const share = (limit: number | null | undefined) => (limit ? Math.max(1, Math.floor(limit / replicas)) : null);
    const decision = await this.#local.acquire({
      ...request,
      rpm: share(request.rpm),
      tpm: share(request.tpm),
      concurrency: request.concurrency
        ? { ...request.concurrency, limit: share(request.concurrency.limit) ?? 1 }
        : null,
      recent: request.recent && {
        requests: request.recent.requests / replicas,
        tokens: request.recent.tokens / replicas,
      },
      ...(request.scopes && {
        scopes: request.scopes.map((s) => ({
          ...s,
          rpm: share(s.rpm),
          tpm: share(s.tpm),
          concurrency: share(s.concurrency),
          recent: s.recent && { requests: s.recent.requests / replicas, tokens: s.recent.tokens / replicas },
        })),
      }),
    });
    return decision.ok ? { ...decision, local: true } : decision;
  }

  get #slotTtlMs(): number {
    return this.#options.slotTtlMs ?? 30_000;
  }

  #hold(slot: string, subjects: string[]): void {
    this.#slots.set(slot, subjects);
    this.#refresher ??= setInterval(
      () => void this.#refreshSlots(),
      Math.max(1, Math.floor(this.#slotTtlMs / 3)),
    ).unref();
  }

  /** Pushes back the expiry of every slot this process holds, in one script call. */
  async #refreshSlots(): Promise<void> {
    if (this.#slots.size === 0) return;
    const keys: string[] = [];
    const slots: string[] = [];
    for (const [slot, subjects] of this.#slots) {
      for (const id of subjects) {
        keys.push(this.#key('slots', id));
        slots.push(slot);
      }
    }
    try {
      await this.#client.switchyardRefreshSlots(keys.length, ...keys, this.#slotTtlMs, ...slots);
    } catch (error) {
      this.#options.failures.report('Redis limits unavailable (concurrency slots not refreshed)', error);
    }
  }

  /** Removes the slot at once (one `ZREM` per subject, pipelined; not batched, so that the next call finds it free). */
  async release(keyId: string, slot: string, scopes?: readonly string[]): Promise<void> {
    const subjects = this.#slots.get(slot);
    if (!subjects) return this.#local.release(keyId, slot, scopes);
    this.#slots.delete(slot);
    if (this.#slots.size === 0) {
      clearInterval(this.#refresher);
      this.#refresher = undefined;
    }
    try {
      if (subjects.length === 1 && subjects[0]) await this.#client.zrem(this.#key('slots', subjects[0]), slot);
      else await this.#client.pipeline(subjects.map((id) => ['zrem', this.#key('slots', id), slot])).exec();
    } catch (error) {
      this.#options.failures.report('Redis limits unavailable (a concurrency slot is left to expire)', error);
    }
  }

  /**
   * Queues the settlement (the key's part and each scope's) for the next batch and resolves once that batch is written,
   * with each budget window's spend after it (none when the batch failed: reported, never rejected). Settlements of
   * one event-loop turn share one script call (or every `settleEveryMs` when set).
   */
  settle(settlement: LimitSettlement): Promise<SettledBudget[]> {
    return settlement.local ? this.#local.settle(settlement) : this.#settlements.settle(settlement);
  }

  /**
   * Sends every pending settlement now, in one script call, and resolves once it is applied or has failed. A failed
   * batch is not lost: it is sent again (the same batch id, so that a batch Redis applied but whose reply was lost is
   * not applied twice) after 50 ms, doubling up to 2 s, for up to `settleRetryMs`, so that a transient Redis failure
   * cannot leave its reservations holding a key's budget or tpm. Failures are reported; the spends a retry reads are
   * not reported back (the settlements resolved when the first attempt failed).
   */
  flush(): Promise<void> {
    return this.#settlements.flush();
  }

  /** Sends one batch (see `SETTLE_SCRIPT`): each part's spend after it; rejects when Redis fails. */
  #send(id: string, batch: readonly PendingSettlement[]): Promise<string[]> {
    const keys: string[] = [this.#key('settled', id)];
    const args: (string | number)[] = [this.#settlements.markerTtlMs];
    /**
     * Subject id -> the group of its two keys and the budget window they name (as `AdmissionBatches` does: no name
     * made per part; a subject's part in another window than its first names its keys again).
     */
    const groups = new Map<string, { group: number; window: string }>();
    for (const s of batch) {
      const window = s.budget?.window ?? 'none';
      let known = groups.get(s.id);
      if (known?.window !== window) {
        known = { group: (keys.length - 1) / 2, window };
        if (!groups.has(s.id)) groups.set(s.id, known);
        keys.push(this.#key('tpm', s.id), this.#key('spend', `${s.id}:${window}`));
      }
      args.push(`${known.group},${s.tpm ?? 0},${s.delta},${s.budget?.reservedUsd ?? 0},${s.budget?.costUsd ?? 0}`);
    }
    return this.#turn.settle(keys, args);
  }

  /** Sends what is pending, and once more every batch still waiting for a retry; then stops retrying. */
  async close(): Promise<void> {
    clearInterval(this.#refresher);
    this.#refresher = undefined;
    await this.#settlements.close();
  }
}
