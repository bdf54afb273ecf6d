import type { AdapterOperation } from '../adapter/provider-adapter.js';
import type { CompletionUsage } from '../schemas/completion-usage.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
import type { SessionAdmissionRequest, SessionTicket } from './session-accounting.js';

/** Operations that run through a plan (everything but listing models). */
export type CallOperation = Exclude<AdapterOperation, 'listModels'>;

/**
 * How the client labels its calls, recorded on the ledger row: Claude Code's `x-claude-code-session-id`,
 * `x-claude-code-agent-id` and `x-claude-code-parent-agent-id` (a session, a subagent, the agent that started it).
 * The front door bounds each value's length.
 * @see https://code.claude.com/docs/en/llm-gateway-protocol
 */
export interface CallLabels {
  session_id?: string;
  agent_id?: string;
  parent_agent_id?: string;
  /** The `/v1/batches` job the call is a line of (`batch_…`): its ledger row is tagged with it and priced at the batch discount. */
  batch_id?: string;
}

/** What the gateway tells an accountant before a call runs. */
export interface CallAdmissionRequest {
  /** Who calls: what {@link CallAccounting.authenticate} returned for the request's `Authorization` header. */
  caller: unknown;
  operation: CallOperation;
  /** The model id the client sent. */
  model: string;
  /** Everything that may serve the call: the requested model, then its fallbacks. */
  plan: RoutePlan;
  /** The validated request body (for token estimates: messages, `max_tokens`, `n`...). */
  request: Record<string, unknown>;
  requestId: string;
  /** True for `stream: true` chat calls. */
  stream: boolean;
  /** The client's labels of the call, when it sent any. */
  labels?: CallLabels;
}

/** One upstream attempt of a call, as the router saw it. */
export interface AttemptReport {
  target: RouteTarget;
  /** 200 when it answered; else the status of its failure (upstream status, 504 timeout, 499 client gone, 502...). */
  status: number;
  /**
   * True when the upstream may have worked (and billed) on it although the gateway did not use its answer: the
   * gateway or the client aborted it after the request was sent (timeouts, client gone). False for upstream error
   * answers and connection failures, which cost nothing.
   */
  billable: boolean;
  /** Duration of the attempt, ms. */
  latencyMs: number;
  /** True when the attempt took part in a hedged request's race (the winner and the aborted loser). */
  hedged?: boolean;
  /**
   * For an attempt whose answer was not used: the usage (tokens) its upstream reported, when it reported any (a hedge
   * loser that had answered, a stream cut off after its usage). Accounting books these tokens instead of an estimate.
   */
  usage?: Partial<CompletionUsage>;
  /** For an unused stream attempt (mid-stream failover): the text it delivered, to count when it reported no usage. */
  completionText?: string;
}

/** How a call ended, reported once to {@link CallTicket.settle}. */
export interface CallSettlement {
  /**
   * Status of the call: 200; the error's status when it failed; 499 when the client went away before the end (a
   * stream cut by the client included); for a stream that failed after its first byte, the failure's status.
   */
  status: number;
  /** The deployment whose answer was used, when one answered. */
  target?: RouteTarget;
  /** Usage (tokens) the upstream reported for the answer used, if any. */
  usage?: Partial<CompletionUsage>;
  /** Text streamed to the client (chat streams), to count tokens when the upstream reported no usage. */
  completionText?: string;
  /**
   * Images the answer carried (image generations, edits and variations: the entries of its `data`, or a stream's
   * `image_edit.completed` events), for per-image prices; absent for other operations.
   */
  images?: number;
  /** Every attempt made, the used one last when one answered. */
  attempts: readonly AttemptReport[];
  /** From admission to the end of the answer, ms. */
  latencyMs: number;
  /** From admission to the first byte (first chunk of a stream), ms; absent when nothing came. */
  ttfbMs?: number;
  stream: boolean;
  /** True when the answer came from the response cache: no upstream attempt, booked with no tokens and cost 0. */
  cacheHit?: boolean;
  /**
   * True when a stream broke mid-way and continued on another deployment (`stream_failover`): `target` and `usage` are
   * the last attempt's; the broken attempts are in `attempts` with their `usage` or `completionText`.
   */
  streamFailover?: boolean;
}

/** What admission granted: the plan to run (models the caller may not use removed) and headers for the client. */
export interface CallTicket {
  /** The plan to execute: the admitted plan with models or deployments the caller may not use left out. */
  plan: RoutePlan;
  /** Response headers (e.g. OpenAI's `x-ratelimit-*`). */
  headers: Record<string, string>;
  /**
   * Books the call once it has ended (ledger row, cost, limits settled). Called exactly once per admitted call.
   * Returns the cost in USD when it is known at once (non-streamed answers with usage), for `x-switchyard-cost-usd`;
   * may add response headers to `headers` (e.g. `x-switchyard-price-source`), which are read after it returns.
   */
  settle(settlement: CallSettlement): number | undefined;
  /**
   * Resolves once what {@link settle} booked in the limits is written (the call's reservation of tokens and USD
   * settled against its usage, its concurrency slot released), for a client that sends its next call as soon as this
   * one has ended; at once when `settle` has not been called yet. Core awaits it before a non-streamed answer or an
   * error is handed over and before a stream ends. Never rejects. Optional: without it nothing is awaited.
   */
  settled?(): Promise<void>;
}

/**
 * Admission and metering of calls, plugged into {@link GatewayOptions.accounting}: `@switchyard/accounts` implements
 * it (virtual keys, model allow-lists, rpm/tpm/budget limits, the usage ledger). Core stays free of storage; every
 * embedder of `createGateway()` gets the same limits and ledger as the HTTP server.
 */
export interface CallAccounting {
  /**
   * Identifies the caller from an `Authorization` header value. Throws a 401 `GatewayError` (and books it) for a
   * missing, unknown, revoked or expired key. May answer a promise (of the caller, or rejected with the 401) when the
   * key must be looked up first (e.g. created on another replica a moment ago); `clientAddress` (the client's IP
   * address) lets such look-ups be limited per client.
   */
  authenticate(authorization: string | undefined, context: { requestId: string; clientAddress?: string }): unknown;
  /**
   * Admits a call: throws 403 (model not allowed or not priced for a key with a budget), 429 (rate or budget
   * limit; booked with its status) or 503 (limits unavailable). Resolves with the ticket to settle afterwards.
   */
  admit(request: CallAdmissionRequest): Promise<CallTicket>;
  /**
   * Books a call refused before admission (invalid body 400, unknown model 404, unsupported operation 400, client gone
   * 499): no cost. `model` is the body's `model` when it is a string, else empty.
   */
  refuse?(refusal: {
    caller: unknown;
    model: string;
    requestId: string;
    stream: boolean;
    status: number;
    labels?: CallLabels;
  }): void;
  /**
   * Admits a long-lived session (a Realtime WebSocket): the allow-list, rpm, a concurrency slot held until the ticket
   * is closed, and the budget (refused when it is already spent). Throws as {@link admit}. Accountants without it
   * cannot admit sessions: the gateway then refuses them with 400 `unsupported_operation`.
   */
  admitSession?(request: SessionAdmissionRequest): Promise<SessionTicket>;
}
