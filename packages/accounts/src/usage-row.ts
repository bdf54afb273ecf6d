import type { PriceSource } from './catalog-price.js';

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
  /** USD, from the per-million-token prices named by `price_source`. */
  cost_usd: number;
  /**
   * Where the price came from: `config` (the model's `price`), `catalog` (the bundled price catalogue), `none` (no
   * price known: cost 0). Set on every row the gateway writes; null on rows stored before the column existed.
   */
  price_source?: PriceSource | null;
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
