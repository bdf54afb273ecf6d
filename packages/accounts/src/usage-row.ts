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
  /**
   * Status of the call: the HTTP status sent (401/403/429 for calls refused at admission), 499 when the client went
   * away before the end (a stream it cut included), or the failure's status for a stream that failed after its start.
   */
  status: number;
  stream: boolean;
  /** Unix time, ms. */
  created_at: number;
  /** Upstream attempts made (retries, fallbacks); tokens and cost include every billable attempt. Default 1. */
  attempts?: number;
  /** True when the tokens (and so the cost) are an estimate, not usage reported by the upstream. */
  usage_estimated?: boolean;
  /** True when the answer came from the response cache (no upstream call: no tokens, cost 0). Default false. */
  cache_hit?: boolean;
  /** True when the call was a hedged request that started a second attempt (`hedge`); both attempts are counted. */
  hedged?: boolean;
  /**
   * True when the stream broke mid-way and continued on another deployment (`stream_failover`); `provider` is the one
   * that finished it, and the tokens sum every attempt.
   */
  stream_failover?: boolean;
  /**
   * The gateway operation of the call (`chatCompletions`, `anthropicMessages`, `anthropicCountTokens`,
   * `openaiResponses`, `embeddings`...); null for calls refused before admission and rows stored before the column existed.
   */
  operation?: string | null;
  /** The client's session (Claude Code's `x-claude-code-session-id`), at most 128 characters; null when none was sent. */
  session_id?: string | null;
  /** The client's agent or subagent (`x-claude-code-agent-id`), at most 128 characters; null when none was sent. */
  agent_id?: string | null;
  /** The agent that started this one (`x-claude-code-parent-agent-id`), at most 128 characters; null when none was sent. */
  parent_agent_id?: string | null;
  /** The `/v1/batches` job this call was a line of (`batch_…`); null for live calls. */
  batch_id?: string | null;
  /** The key's team at the time of the call; null for keys without a team. */
  team_id?: string | null;
  /** The organisation of the key's team at the time of the call; null for keys without one. */
  organization_id?: string | null;
  /** The end user the client named (OpenAI's `user` or `safety_identifier`), at most 128 characters; null when none. */
  end_user?: string | null;
}

/** Filters of a usage report; `from`/`to` are unix ms (inclusive/exclusive). */
export interface UsageFilter {
  key_id?: string;
  model?: string;
  team_id?: string;
  organization_id?: string;
  end_user?: string;
  session_id?: string;
  from?: number;
  to?: number;
}

/**
 * How a usage report is grouped (`status`: by the call's status, e.g. `200`, `429`, `499`; `session` and `agent`: by
 * the client's session or agent id, e.g. a Claude Code session and its subagents, `team`, `organization` and
 * `end_user`: by the key's team, its team's organisation or the end user the client named, each counting only rows
 * that have one).
 */
export type UsageGroupBy =
  | 'key'
  | 'model'
  | 'day'
  | 'status'
  | 'session'
  | 'agent'
  | 'team'
  | 'organization'
  | 'end_user';

/** Groupings that count only the rows that have a value (the others group every row). */
export const SPARSE_GROUPS: readonly UsageGroupBy[] = ['session', 'agent', 'team', 'organization', 'end_user'];

/**
 * One group of a usage report (`group` is the key id, model id, UTC date `YYYY-MM-DD` or status as text; absent when
 * ungrouped).
 */
export interface UsageTotals {
  group?: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost_usd: number;
  /** Requests answered from the response cache (counted in `requests` too). */
  cache_hits: number;
}
