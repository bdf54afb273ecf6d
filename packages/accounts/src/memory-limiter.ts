import {
  type LimitDecision,
  type Limiter,
  type LimitRequest,
  type LimitSettlement,
  type LimitState,
  limitSubjects,
  requestSlot,
  type ScopeSettlement,
  type SettledBudget,
} from './limiter.js';
import { TokenBucket } from './token-bucket.js';

/** Sums of float USD amounts drift (10 x 0.1 < 1): spend within this of the budget counts as the whole budget. */
export const BUDGET_EPSILON_USD = 1e-9;

/**
 * The budget rule of every {@link Limiter}: a call is admitted while the settled spend is below the budget and, when
 * calls in flight hold reservations, those reservations plus this call's estimate fit in what is left (all USD).
 */
export function budgetAdmits(spentUsd: number, reservedUsd: number, estimateUsd: number, limitUsd: number): boolean {
  if (spentUsd >= limitUsd - BUDGET_EPSILON_USD) return false;
  return reservedUsd <= BUDGET_EPSILON_USD || spentUsd + reservedUsd + estimateUsd <= limitUsd + BUDGET_EPSILON_USD;
}

interface Counters {
  requests?: TokenBucket;
  tokens?: TokenBucket;
  /** Spend per budget window: settled USD and USD reserved by calls in flight. */
  windows: Map<string, { spentUsd: number; reservedUsd: number }>;
  /** Concurrency slots held by calls in flight. */
  slots: Set<string>;
  /** Counters of what clients send (end users, sessions), which may be forgotten when idle. */
  evictable: boolean;
}

/** Default most evictable counters (end users, sessions) held at once; see {@link MemoryLimiter}. */
export const MAX_EVICTABLE_COUNTERS = 100_000;

/**
 * The in-process {@link Limiter}: token buckets per key and per scope (team, end user, session: requests and tokens
 * per minute, refilled continuously), the spend of the current budget window, and the concurrency slots held by calls
 * in flight. Node runs one callback at a time, so check-and-take over a key and its scopes is atomic. Limits hold for
 * one process only; use `RedisLimiter` for several replicas. Counters keyed by what clients send (end users, sessions)
 * are bounded: past `maxEvictable` of them the least recently used idle ones are forgotten (a forgotten budget is
 * seeded from the ledger again on its next call; a forgotten rpm bucket starts full).
 */
export class MemoryLimiter implements Limiter {
  readonly #counters = new Map<string, Counters>();
  readonly #seedRecent: boolean;
  readonly #maxEvictable: number;
  #evictable = 0;

  /**
   * `seedRecent`: a key's new rpm and tpm buckets start at their limit less the key's use in the last minute
   * (`LimitRequest.recent`, asked for with a `seed` answer) instead of full (used while a shared limiter is away).
   * `maxEvictable`: most end-user and session counters held (default {@link MAX_EVICTABLE_COUNTERS}).
   */
  constructor(
    private readonly now: () => number = Date.now,
    options: { seedRecent?: boolean; maxEvictable?: number } = {},
  ) {
    this.#seedRecent = options.seedRecent ?? false;
    this.#maxEvictable = options.maxEvictable ?? MAX_EVICTABLE_COUNTERS;
  }

  /** How many evictable counters (end users, sessions) are held now. */
  get evictableCount(): number {
    return this.#evictable;
  }

  #get(id: string, evictable = false): Counters {
    let counters = this.#counters.get(id);
    if (counters) {
      if (counters.evictable) {
        // Most recently used last: eviction walks from the front.
        this.#counters.delete(id);
        this.#counters.set(id, counters);
      }
      return counters;
    }
    counters = { windows: new Map(), slots: new Set(), evictable };
    this.#counters.set(id, counters);
    if (evictable && ++this.#evictable > this.#maxEvictable) this.#evict();
    return counters;
  }

  /** Forgets the least recently used idle evictable counters until at most `maxEvictable` are held. */
  #evict(): void {
    for (const [id, counters] of this.#counters) {
      if (this.#evictable <= this.#maxEvictable) return;
      if (
        !counters.evictable ||
        counters.slots.size > 0 ||
        [...counters.windows.values()].some((w) => w.reservedUsd > 0)
      )
        continue;
      this.#counters.delete(id);
      this.#evictable--;
    }
  }

  #bucket(current: TokenBucket | undefined, limit: number | null, used = 0): TokenBucket | undefined {
    if (!limit) return undefined;
    if (!current) {
      const bucket = new TokenBucket(limit, 60_000, this.now);
      if (this.#seedRecent && used > 0) bucket.adjust(-Math.min(limit, used));
      return bucket;
    }
    if (current.capacity !== limit) current.resize(limit);
    return current;
  }

  async acquire(request: LimitRequest): Promise<LimitDecision> {
    const subjects = limitSubjects(request);
    const own = this.#get(request.keyId);
    const fresh = (!own.requests && !!request.rpm) || (!own.tokens && !!request.tpm);
    if (this.#seedRecent && fresh && !request.recent) return { ok: false, reason: 'seed', what: 'recent' };
    const slot = requestSlot(request);
    const checked = [];
    for (const [i, subject] of subjects.entries()) {
      const counters = i === 0 ? own : this.#get(subject.id, subject.evictable);
      const recent = i === 0 ? request.recent : subject.recent;
      const missing = (!counters.requests && !!subject.rpm) || (!counters.tokens && !!subject.tpm);
      if (this.#seedRecent && i > 0 && missing && !recent)
        return { ok: false, reason: 'seed', what: 'recent', scope: subject.id };
      const requests = (counters.requests = this.#bucket(counters.requests, subject.rpm, recent?.requests));
      const tokens = (counters.tokens = this.#bucket(counters.tokens, subject.tpm, recent?.tokens));
      let window: { spentUsd: number; reservedUsd: number } | undefined;
      if (subject.budget) {
        window = counters.windows.get(subject.budget.window);
        if (!window) {
          if (subject.budget.seedUsd === undefined)
            return { ok: false, reason: 'seed', ...(i > 0 && { scope: subject.id }) };
          counters.windows.clear(); // older windows are over
          counters.windows.set(subject.budget.window, (window = { spentUsd: subject.budget.seedUsd, reservedUsd: 0 }));
        }
      }
      checked.push({
        subject,
        counters,
        requests,
        tokens,
        window,
        wanted: tokens ? Math.min(request.tokens, tokens.capacity) : 0,
      });
    }
    const first = checked[0];
    const state = (): LimitState => ({
      requestsRemaining: first?.requests && Math.max(0, Math.floor(first.requests.remaining)),
      requestsResetMs: first?.requests?.msUntil(first.requests.capacity),
      tokensRemaining: first?.tokens && Math.max(0, Math.floor(first.tokens.remaining)),
      tokensResetMs: first?.tokens?.msUntil(first.tokens.capacity),
    });
    for (const [i, { subject, counters, requests, tokens, window, wanted }] of checked.entries()) {
      const scope = i > 0 ? { scope: subject.id } : {};
      if (subject.concurrency && counters.slots.size >= subject.concurrency)
        return { ok: false, reason: 'concurrency', state: state(), retryAfterMs: 1000, ...scope };
      if (requests && requests.remaining < 1)
        return { ok: false, reason: 'requests', state: state(), retryAfterMs: requests.msUntil(1), ...scope };
      if (tokens && tokens.remaining < wanted)
        return { ok: false, reason: 'tokens', state: state(), retryAfterMs: tokens.msUntil(wanted), ...scope };
      if (
        subject.budget &&
        window &&
        !budgetAdmits(window.spentUsd, window.reservedUsd, subject.budget.reserveUsd, subject.budget.limitUsd)
      ) {
        return {
          ok: false,
          reason: 'budget',
          state: state(),
          retryAfterMs: 0,
          budget: { spentUsd: window.spentUsd, reservedUsd: window.reservedUsd },
          ...scope,
        };
      }
    }
    for (const { subject, counters, requests, tokens, window, wanted } of checked) {
      requests?.tryTake(1);
      tokens?.tryTake(wanted);
      if (window && subject.budget) window.reservedUsd += subject.budget.reserveUsd;
      if (subject.concurrency && slot) counters.slots.add(slot);
    }
    return { ok: true, state: state() };
  }

  #settleOne(id: string, settlement: Omit<ScopeSettlement, 'id'>, settled: SettledBudget[]): void {
    const counters = this.#counters.get(id);
    if (!counters) return;
    counters.tokens = this.#bucket(counters.tokens, settlement.tpm);
    counters.tokens?.adjust(settlement.tokensReserved - settlement.tokensUsed);
    if (!settlement.budget) return;
    const window = counters.windows.get(settlement.budget.window);
    if (!window) return;
    window.reservedUsd = Math.max(0, window.reservedUsd - settlement.budget.reservedUsd);
    window.spentUsd += settlement.budget.costUsd;
    settled.push({
      id,
      window: settlement.budget.window,
      spentUsd: window.spentUsd,
      costUsd: settlement.budget.costUsd,
    });
  }

  async settle(settlement: LimitSettlement): Promise<SettledBudget[]> {
    const settled: SettledBudget[] = [];
    this.#get(settlement.keyId);
    this.#settleOne(settlement.keyId, settlement, settled);
    for (const scope of settlement.scopes ?? []) this.#settleOne(scope.id, scope, settled);
    return settled;
  }

  async release(keyId: string, slot: string, scopes: readonly string[] = []): Promise<void> {
    this.#counters.get(keyId)?.slots.delete(slot);
    for (const id of scopes) this.#counters.get(id)?.slots.delete(slot);
  }

  async close(): Promise<void> {}
}
