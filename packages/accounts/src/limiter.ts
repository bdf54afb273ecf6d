/** A budget to check and reserve from in one {@link LimitRequest}. */
export interface LimitBudget {
  /** USD per window. */
  limitUsd: number;
  /** Identity of the budget window, e.g. `day:1763769600000` (period and start, unix ms). */
  window: string;
  /** USD to reserve (the pre-call cost estimate). */
  reserveUsd: number;
  /** Spend of the window from the ledger, USD: pass it after a `seed` answer. */
  seedUsd?: number;
}

/**
 * Further counters a call is checked against and takes from, atomically with its key's: its team's, its end user's,
 * its agent session's. `id` names the counters (e.g. `team:team_1`, `team:team_1:user:alice`); the same id is the
 * same counters for every key that names it.
 */
export interface LimitScope {
  id: string;
  /** Requests per minute; null = unlimited. */
  rpm: number | null;
  /** Tokens per minute; null = unlimited (the call's `tokens`, capped at this limit, are reserved). */
  tpm: number | null;
  /** Calls in flight at once, each holding the request's `slot`; null = unlimited. */
  concurrency: number | null;
  budget: LimitBudget | null;
  /**
   * True for counters keyed by what clients send (end users, sessions): a limiter may forget idle ones (budgets are
   * then seeded from the ledger again, request buckets start full) to bound its memory.
   */
  evictable?: boolean;
  /**
   * What the ledger says this scope used in the last minute (requests admitted, tokens): pass it after a `seed` answer
   * asking for `recent` of this scope, to start its buckets at their limit less that use (see `LimitRequest.recent`).
   */
  recent?: { requests: number; tokens: number };
}

/** The key's own counters and its scopes, in check order (the key first); see {@link limitSubjects}. */
export type LimitSubject = LimitScope;

/** The key's counters (first) and the request's scopes as one list. */
export function limitSubjects(request: LimitRequest): LimitSubject[] {
  const own: LimitSubject = {
    id: request.keyId,
    rpm: request.rpm,
    tpm: request.tpm,
    concurrency: request.concurrency?.limit ?? null,
    budget: request.budget,
  };
  return request.scopes?.length ? [own, ...request.scopes] : [own];
}

/** The concurrency slot a request takes in every subject with a concurrency limit, or undefined when none has one. */
export function requestSlot(request: LimitRequest): string | undefined {
  return request.concurrency?.slot ?? (request.scopes?.some((s) => s.concurrency) ? request.slot : undefined);
}

/**
 * One admission check of a virtual key against its limits, done atomically by a {@link Limiter}: take one request
 * from the requests-per-minute bucket, reserve `tokens` from the tokens-per-minute bucket, and reserve `budget.reserveUsd`
 * of the key's budget in the current window, and the same from each of its {@link LimitScope}s (its team, end user,
 * session). Either everything is taken or nothing is.
 */
export interface LimitRequest {
  keyId: string;
  /** Requests per minute; null = unlimited. A changed limit resizes the bucket without refilling it. */
  rpm: number | null;
  /** Tokens per minute; null = unlimited. */
  tpm: number | null;
  /** Tokens to reserve (the pre-call estimate), capped at `tpm`. */
  tokens: number;
  /**
   * Calls in flight at once: `limit` slots per key, this call taking the one named `slot` (unique per call) until
   * {@link Limiter.release}. Absent or null = unlimited.
   */
  concurrency?: { limit: number; slot: string } | null;
  /**
   * What the ledger says the key used in the last minute (requests admitted, tokens): pass it after a `seed` answer
   * asking for `recent`, to start a bucket the limiter does not hold (e.g. a Redis that came back empty) at its limit
   * less that use instead of full.
   */
  recent?: { requests: number; tokens: number };
  /** The key's budget, when it has one. */
  budget: LimitBudget | null;
  /** Further counters checked and taken in the same atomic step (team, end user, session). */
  scopes?: LimitScope[];
  /** The call's concurrency slot in scopes with a concurrency limit when the key itself has none (unique per call). */
  slot?: string;
}

/** Where the key stands after a check, for OpenAI's `x-ratelimit-*` headers. */
export interface LimitState {
  requestsRemaining?: number;
  /** ms until the requests bucket is full again. */
  requestsResetMs?: number;
  tokensRemaining?: number;
  /** ms until the tokens bucket is full again. */
  tokensResetMs?: number;
}

/** Outcome of {@link Limiter.acquire}. */
export type LimitDecision =
  /**
   * Admitted; `unreserved` when nothing could be counted (the backend failed and fails open); `local` when this
   * process counted it on its own (a shared backend unreachable): pass it back in {@link LimitSettlement.local}.
   */
  | { ok: true; state: LimitState; unreserved?: boolean; local?: boolean }
  | {
      ok: false;
      reason: 'requests' | 'tokens' | 'budget' | 'concurrency';
      state: LimitState;
      /** ms until a retry may pass. */
      retryAfterMs: number;
      /** For `budget`: where the window stood, USD (settled spend, and what calls in flight reserved). */
      budget?: { spentUsd: number; reservedUsd: number };
      /** The {@link LimitScope} whose limit refused the call; absent when it was the key's own. */
      scope?: string;
    }
  /**
   * The limiter needs the ledger: the budget window's spend (`what: 'spend'`, the default: call again with
   * `budget.seedUsd`, of the scope named `scope`, or the key's own when absent) or the use in the last minute of the
   * key (`what: 'recent'`: call again with `recent`) or of the scope named `scope` (call again with its `recent`).
   */
  | { ok: false; reason: 'seed'; what?: 'spend' | 'recent'; scope?: string };

/** What a finished call gives back or adds: the token estimate against actual use, the reserved USD against the cost. */
export interface LimitSettlement {
  keyId: string;
  /** The call was admitted with `local: true` (counted in this process). */
  local?: boolean;
  tpm: number | null;
  /** Tokens reserved at admission. */
  tokensReserved: number;
  /** Tokens actually used (prompt + completion, every billable attempt). */
  tokensUsed: number;
  budget: { window: string; reservedUsd: number; costUsd: number } | null;
  /** The same for each scope the call was admitted in. */
  scopes?: ScopeSettlement[];
}

/** What a finished call gives back to, or adds to, one {@link LimitScope}. */
export interface ScopeSettlement {
  id: string;
  tpm: number | null;
  tokensReserved: number;
  tokensUsed: number;
  budget: { window: string; reservedUsd: number; costUsd: number } | null;
}

/** A budget window after a settlement: its subject (key id or scope id) and settled spend, USD (for alerts). */
export interface SettledBudget {
  id: string;
  window: string;
  /** Settled spend of the window after this call, USD. */
  spentUsd: number;
  /** This call's cost, USD. */
  costUsd: number;
}

/**
 * Counts limits of virtual keys. {@link MemoryLimiter} (one process, the default) and `RedisLimiter` (shared by every
 * replica) implement it. A call is admitted while the token bucket holds the call's estimate, and while the key's
 * settled spend is below the budget and, when other calls of the key are in flight, their reservations plus this
 * call's estimate fit in it. Tolerance: budgets and tpm are exceeded only by what calls use beyond their estimates,
 * and a budget by at most the cost of one call admitted while no other call of the key was in flight. The
 * concurrency limit has no tolerance: a slot is taken in the same atomic check. {@link Limiter.settle} resolves once
 * the settlement is applied, so that a client's next call sees it.
 */
export interface Limiter {
  /** Checks and takes atomically; see {@link LimitRequest}. Rejects when the limiter's backend fails. */
  acquire(request: LimitRequest): Promise<LimitDecision>;
  /**
   * Settles one admitted call; resolves once it is applied, with each budget window's settled spend after it (those
   * it still knows). Rejects when the backend fails (the caller logs it).
   */
  settle(settlement: LimitSettlement): Promise<SettledBudget[] | undefined>;
  /**
   * Gives back the concurrency slot `slot` taken by an admitted call in key `keyId` and in the scopes `scopes` (ids;
   * see {@link LimitRequest.concurrency}). Releasing an unknown slot does nothing. Rejects when the backend fails (the
   * slot then expires by itself in Redis).
   */
  release(keyId: string, slot: string, scopes?: readonly string[]): Promise<void>;
  /** Releases the backend's connections. */
  close(): Promise<void>;
}
