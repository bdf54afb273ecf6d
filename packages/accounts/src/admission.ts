/** What `Accounts.admit` reserved; pass it to `Accounts.settle`. */
export interface Admission {
  /** Tokens reserved from the tokens-per-minute bucket (the pre-call estimate, capped at the limit). */
  reservedTokens: number;
  /** USD reserved from the budget (the pre-call cost estimate). */
  reservedUsd: number;
  /** The budget window the reservation was made in (see `KeyState.budgetWindow`). */
  budgetWindow?: string;
  /** The concurrency slot the call holds until `Accounts.release` (keys with a `concurrency_limit`). */
  slot?: string;
  /** `x-ratelimit-*` response headers. */
  headers: Record<string, string>;
  /** Counted by this process alone (the shared limiter was unreachable); see `LimitDecision`. */
  local?: boolean;
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
