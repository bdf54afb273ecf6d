import type { LimitDecision, Limiter, LimitRequest, LimitSettlement, LimitState } from './limiter.js';
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

interface KeyCounters {
  requests?: TokenBucket;
  tokens?: TokenBucket;
  /** Spend per budget window: settled USD and USD reserved by calls in flight. */
  windows: Map<string, { spentUsd: number; reservedUsd: number }>;
  /** Concurrency slots held by calls in flight. */
  slots: Set<string>;
}

/**
 * The in-process {@link Limiter}: token buckets per key (requests and tokens per minute, refilled continuously), the
 * spend of the current budget window, and the concurrency slots held by calls in flight. Node runs one callback at a
 * time, so check-and-take is atomic. Limits hold for one process only; use `RedisLimiter` for several replicas.
 */
export class MemoryLimiter implements Limiter {
  readonly #keys = new Map<string, KeyCounters>();
  readonly #seedRecent: boolean;

  /**
   * `seedRecent`: a key's new rpm and tpm buckets start at their limit less the key's use in the last minute
   * (`LimitRequest.recent`, asked for with a `seed` answer) instead of full (used while a shared limiter is away).
   */
  constructor(
    private readonly now: () => number = Date.now,
    options: { seedRecent?: boolean } = {},
  ) {
    this.#seedRecent = options.seedRecent ?? false;
  }

  #counters(keyId: string): KeyCounters {
    let counters = this.#keys.get(keyId);
    if (!counters) this.#keys.set(keyId, (counters = { windows: new Map(), slots: new Set() }));
    return counters;
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
    const counters = this.#counters(request.keyId);
    const fresh = (!counters.requests && !!request.rpm) || (!counters.tokens && !!request.tpm);
    if (this.#seedRecent && fresh && !request.recent) return { ok: false, reason: 'seed', what: 'recent' };
    const requests = (counters.requests = this.#bucket(counters.requests, request.rpm, request.recent?.requests));
    const tokens = (counters.tokens = this.#bucket(counters.tokens, request.tpm, request.recent?.tokens));
    let window: { spentUsd: number; reservedUsd: number } | undefined;
    if (request.budget) {
      window = counters.windows.get(request.budget.window);
      if (!window) {
        if (request.budget.seedUsd === undefined) return { ok: false, reason: 'seed' };
        counters.windows.clear(); // older windows are over
        counters.windows.set(request.budget.window, (window = { spentUsd: request.budget.seedUsd, reservedUsd: 0 }));
      }
    }
    const state = (): LimitState => ({
      requestsRemaining: requests && Math.max(0, Math.floor(requests.remaining)),
      requestsResetMs: requests?.msUntil(requests.capacity),
      tokensRemaining: tokens && Math.max(0, Math.floor(tokens.remaining)),
      tokensResetMs: tokens?.msUntil(tokens.capacity),
    });
    const concurrency = request.concurrency;
    if (concurrency && counters.slots.size >= concurrency.limit) return { ok: false, reason: 'concurrency', state: state(), retryAfterMs: 1000 };
    if (requests && requests.remaining < 1) return { ok: false, reason: 'requests', state: state(), retryAfterMs: requests.msUntil(1) };
    const wanted = tokens ? Math.min(request.tokens, tokens.capacity) : 0;
    if (tokens && tokens.remaining < wanted) return { ok: false, reason: 'tokens', state: state(), retryAfterMs: tokens.msUntil(wanted) };
    if (request.budget && window && !budgetAdmits(window.spentUsd, window.reservedUsd, request.budget.reserveUsd, request.budget.limitUsd)) {
      return { ok: false, reason: 'budget', state: state(), retryAfterMs: 0, budget: { spentUsd: window.spentUsd, reservedUsd: window.reservedUsd } };
    }
    requests?.tryTake(1);
    tokens?.tryTake(wanted);
    if (window && request.budget) window.reservedUsd += request.budget.reserveUsd;
    if (concurrency) counters.slots.add(concurrency.slot);
    return { ok: true, state: state() };
  }

  async settle(settlement: LimitSettlement): Promise<void> {
    const counters = this.#counters(settlement.keyId);
    counters.tokens = this.#bucket(counters.tokens, settlement.tpm);
    counters.tokens?.adjust(settlement.tokensReserved - settlement.tokensUsed);
    if (settlement.budget) {
      const window = counters.windows.get(settlement.budget.window);
      if (window) {
        window.reservedUsd = Math.max(0, window.reservedUsd - settlement.budget.reservedUsd);
        window.spentUsd += settlement.budget.costUsd;
      }
    }
  }

  async release(keyId: string, slot: string): Promise<void> {
    this.#keys.get(keyId)?.slots.delete(slot);
  }

  async close(): Promise<void> {}
}
