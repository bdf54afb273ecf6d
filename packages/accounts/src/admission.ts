/** What one scope of a call (team, organisation, end user, session) reserved; see `Admission.scopes`. */
export interface ScopeReservation {
  /** The scope's counters, e.g. `team:team_1` (see `LimitScope.id`). */
  id: string;
  /** Whose limits: `team`, `organization`, `end user`, `session`. */
  what: 'team' | 'organization' | 'end user' | 'session';
  /** The end user or session id (for `end user` and `session`). */
  party?: string;
  /** The scope's tokens-per-minute limit (null = none). */
  tpm: number | null;
  /** Tokens reserved from its tokens-per-minute bucket. */
  reservedTokens: number;
  /** USD reserved from its budget. */
  reservedUsd: number;
  /** Its budget window (when it has a budget) and budget, USD. */
  budget?: { window: string; limitUsd: number };
}

/** What `Accounts.admit` reserved; pass it to `Accounts.settle`. */
export interface Admission {
  /** Tokens reserved from the tokens-per-minute bucket (the pre-call estimate, capped at the limit). */
  reservedTokens: number;
  /** USD reserved from the budget (the pre-call cost estimate). */
  reservedUsd: number;
  /** The budget window the reservation was made in (see `budgetWindow`). */
  budgetWindow?: string;
  /** The concurrency slot the call holds until `Accounts.release` (keys or scopes with a `concurrency_limit`). */
  slot?: string;
  /** Scopes whose concurrency limit the slot is held in, besides the key's. */
  slotScopes?: string[];
  /** `x-ratelimit-*` response headers. */
  headers: Record<string, string>;
  /** Counted by this process alone (the shared limiter was unreachable); see `LimitDecision`. */
  local?: boolean;
  /** What each scope of the call reserved (team, organisation, end user, session). */
  scopes?: ScopeReservation[];
  /** The key's team, booked on the ledger row. */
  teamId?: string;
  /** The organisation of the key's team, booked on the ledger row. */
  organizationId?: string;
  /** The call's end user, booked on the ledger row. */
  endUser?: string;
}

/** The pre-call estimate of one call: tokens (prompt + completion) and cost in USD. */
export interface CallEstimate {
  tokens: number;
  costUsd: number;
  /** Prompt tokens of the estimate, for a refusal's message. */
  promptTokens?: number;
  /** Completion tokens of the estimate, for a refusal's message. */
  completionTokens?: number;
  /** Where `completionTokens` came from (see `CallEstimateDetail.completionBasis`), for a refusal's message. */
  completionBasis?: string;
}
