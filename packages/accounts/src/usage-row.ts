/** One ledger row: what one request used and cost. */
export interface UsageRow {
  request_id: string;
  /** Virtual key id, or `static` for a key from the config file. */
  key_id: string;
  model: string;
  provider: string | null;
  upstream_model: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  /** USD, from the configured per-million-token prices. */
  cost_usd: number;
  latency_ms: number;
  /** Time to first byte, ms (first chunk for streams). */
  ttfb_ms: number | null;
  /** HTTP status sent to the client. */
  status: number;
  stream: boolean;
  /** Unix time, ms. */
  created_at: number;
}

/** Filters of a usage report; `from`/`to` are unix ms (inclusive/exclusive). */
export interface UsageFilter {
  key_id?: string;
  model?: string;
  from?: number;
  to?: number;
}

/** How a usage report is grouped. */
export type UsageGroupBy = 'key' | 'model' | 'day';

/** One group of a usage report (`group` is the key id, model id or UTC date `YYYY-MM-DD`; absent when ungrouped). */
export interface UsageTotals {
  group?: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost_usd: number;
}
