/**
 * How often a budget resets: per day, per week (from Monday), per calendar month (each in the accounts' reset time
 * zone, UTC by default), or never (`total`).
 */
export type BudgetPeriod = 'day' | 'week' | 'month' | 'total';

/**
 * The limits a virtual key and a team share. A call is admitted only when the key and its team both admit it; a key's
 * `models` list narrows its team's, never widens it. Every limit is optional (null or absent = none).
 */
export interface LimitFields {
  /** Model ids or globs (`gpt-4o*`, `anthropic/*`) that may be used; null = all. */
  models: string[] | null;
  /** Requests per minute; null = unlimited. */
  rpm_limit: number | null;
  /** Tokens (prompt + completion) per minute; null = unlimited. */
  tpm_limit: number | null;
  /** Calls in flight at once (streams until they end); null or absent = unlimited. */
  concurrency_limit?: number | null;
  /** Spend limit per `budget_period`, USD; null = unlimited. */
  budget_usd: number | null;
  budget_period: BudgetPeriod;
  /**
   * ISO-8601: when the budget was set (from none) or its period changed. The budget counts spend from the later of
   * this and the start of the current period, so that a new budget or period never carries older spend. null = from
   * the period's start.
   */
  budget_started_at?: string | null;
  /** What each end user (OpenAI's `user` or `safety_identifier`) may spend per `end_user_budget_period`, USD. */
  end_user_budget_usd?: number | null;
  /** Period of `end_user_budget_usd`; null or absent = `total`. */
  end_user_budget_period?: BudgetPeriod | null;
  /** Requests per minute of each end user. */
  end_user_rpm_limit?: number | null;
  /** What each agent session (see `SessionSource`) may spend in all, USD. */
  session_budget_usd?: number | null;
  /** Requests per minute of each agent session. */
  session_rpm_limit?: number | null;
}

/** The optional limit fields, each null when absent (for views and stores). */
export function optionalLimits(fields: LimitFields): Required<Pick<LimitFields, OptionalLimit>> {
  return {
    concurrency_limit: fields.concurrency_limit ?? null,
    budget_started_at: fields.budget_started_at ?? null,
    end_user_budget_usd: fields.end_user_budget_usd ?? null,
    end_user_budget_period: fields.end_user_budget_period ?? null,
    end_user_rpm_limit: fields.end_user_rpm_limit ?? null,
    session_budget_usd: fields.session_budget_usd ?? null,
    session_rpm_limit: fields.session_rpm_limit ?? null,
  };
}

/** The names of the optional limit fields. */
export type OptionalLimit =
  | 'concurrency_limit'
  | 'budget_started_at'
  | 'end_user_budget_usd'
  | 'end_user_budget_period'
  | 'end_user_rpm_limit'
  | 'session_budget_usd'
  | 'session_rpm_limit';

/**
 * The fields after a change of `current` by `changes` (undefined fields left as they are): `budget_started_at` becomes
 * `now` (ISO-8601) when a budget is set where there was none or its period changes, so that spend from before does not
 * count against it.
 */
export function applyLimitChanges<T extends LimitFields>(current: T, changes: Partial<T>, now = new Date()): T {
  const next: T = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  const budgetAdded = current.budget_usd === null && next.budget_usd !== null;
  const periodChanged = current.budget_period !== next.budget_period;
  if ((budgetAdded || periodChanged) && changes.budget_started_at === undefined)
    next.budget_started_at = now.toISOString();
  return next;
}

/** The limit fields of a create body (`limitFieldsShape`), each absent one at its default (none; period `total`). */
export function limitFieldsOf(input: Partial<LimitFields>): Required<LimitFields> {
  return {
    models: input.models ?? null,
    rpm_limit: input.rpm_limit ?? null,
    tpm_limit: input.tpm_limit ?? null,
    concurrency_limit: input.concurrency_limit ?? null,
    budget_usd: input.budget_usd ?? null,
    budget_period: input.budget_period ?? 'total',
    budget_started_at: null,
    end_user_budget_usd: input.end_user_budget_usd ?? null,
    end_user_budget_period: input.end_user_budget_period ?? null,
    end_user_rpm_limit: input.end_user_rpm_limit ?? null,
    session_budget_usd: input.session_budget_usd ?? null,
    session_rpm_limit: input.session_rpm_limit ?? null,
  };
}
