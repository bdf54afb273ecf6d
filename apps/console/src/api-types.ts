/** Shapes of the admin API's answers, as the console reads them (see docs/accounts.md, "Admin API"). */

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
}

/** A virtual key (`GET /admin/keys`); `spend_usd` is the spend in the current budget period, USD. */
export interface KeyView {
  id: string;
  name: string;
  key_prefix: string;
  models: string[] | null;
  rpm_limit: number | null;
  tpm_limit: number | null;
  /** Calls of the key in flight at once; null: no limit. */
  concurrency_limit?: number | null;
  budget_usd: number | null;
  budget_period: 'day' | 'month' | 'total';
  expires_at: string | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  revoked_at: string | null;
  /** Display prefix of the secret the last rotation replaced, while it is still valid; null otherwise. */
  previous_key_prefix?: string | null;
  /** ISO-8601 end of that secret's grace period. */
  previous_key_expires_at?: string | null;
  /** ISO-8601 of the last rotation; null when never rotated. */
  rotated_at?: string | null;
  spend_usd?: number;
}

/** The body of `POST /admin/keys` and `PATCH /admin/keys/:id`. */
export interface KeyInput {
  name?: string;
  /** The team the key belongs to (a team admin's keys must name one of its teams). */
  team_id?: string | null;
  models?: string[] | null;
  rpm_limit?: number | null;
  tpm_limit?: number | null;
  concurrency_limit?: number | null;
  budget_usd?: number | null;
  budget_period?: 'day' | 'month' | 'total';
  expires_at?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** One group of `GET /admin/usage` (tokens; cost in USD). */
export interface UsageTotals {
  group?: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost_usd: number;
  /** Requests answered from the response cache (counted in `requests` too); absent from older gateways. */
  cache_hits?: number;
}

/** One ledger row of `GET /admin/requests` (ms; USD; `created_at` unix ms). */
export interface RequestRow {
  request_id: string;
  key_id: string;
  key_name: string | null;
  model: string;
  provider: string | null;
  upstream_model: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost_usd: number;
  /** Where the price came from: `config`, `catalog` (the bundled price catalogue) or `none`; null on old rows. */
  price_source?: 'config' | 'catalog' | 'none' | null;
  latency_ms: number;
  ttfb_ms: number | null;
  status: number;
  stream: boolean;
  /** Answered from the response cache (no upstream call, cost 0). */
  cache_hit?: boolean;
  /** The gateway operation (`chatCompletions`, `realtime`...); null on rows refused before admission and old rows. */
  operation?: string | null;
  /** The client's session: a Claude Code session, or the gateway's `sess_sy_…` of a realtime WebSocket session. */
  session_id?: string | null;
  /** The `/v1/batches` job this call was a line of (`batch_…`); null for live calls. */
  batch_id?: string | null;
  created_at: number;
}

/** A batch still running (`GET /admin/batches`): OpenAI's Batch object plus its key and runner. */
export interface BatchView {
  id: string;
  endpoint: string;
  model?: string;
  status: string;
  /** Lines: all, answered, failed. */
  request_counts: { total: number; completed: number; failed: number };
  /** Unix seconds. */
  created_at: number;
  key_id: string;
  key_name: string | null;
  /** `gateway` (run line by line here) or the provider whose batch API runs it. */
  runner: string;
}

/** A page of `GET /admin/requests`. */
export interface RequestsPage {
  data: RequestRow[];
  has_more: boolean;
  next_before: string | null;
}

/** One deployment of a model (`GET /admin/models`). */
export interface TargetView {
  deployment: string;
  provider: string;
  upstream_model: string;
  weight: number;
  price: Price | null;
}

/** A configured model (`GET /admin/models`). */
export interface ModelView {
  id: string;
  strategy: string;
  fallbacks: string[];
  max_retries: number;
  price: Price | null;
  targets: TargetView[];
}

/** Live health of one deployment (`GET /admin/health`). */
export interface DeploymentHealth {
  deployment: string;
  provider: string;
  upstream_model: string;
  models: string[];
  in_flight: number;
  latency_ms_avg: number | null;
  consecutive_failures: number;
  cooling_down: boolean;
  cooling_down_until: string | null;
}

/** One audit log entry (`GET /admin/audit`): never holds a secret. */
export interface AuditEntry {
  id: string;
  /** ISO-8601. */
  created_at: string;
  actor: string;
  action: string;
  target: string | null;
  source_address: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A page of `GET /admin/audit`. */
export interface AuditPage {
  data: AuditEntry[];
  has_more: boolean;
  next_before: string | null;
}

/**
 * A team or an organisation of `GET /admin/teams` / `GET /admin/organizations`: its limits (null = none) and
 * `spend_usd`, what it spent in its current budget window (USD).
 */
export interface LimitGroupView {
  id: string;
  name: string;
  /** A team's organisation, if any. */
  organization_id?: string | null;
  models: string[] | null;
  rpm_limit: number | null;
  tpm_limit: number | null;
  concurrency_limit?: number | null;
  budget_usd: number | null;
  budget_period: 'day' | 'week' | 'month' | 'total';
  spend_usd?: number;
  created_at: string;
}
