import type { GatewayError } from '../errors/gateway-error.js';
import type { RealtimeUsage } from '../schemas/realtime-event.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';

/** What the gateway tells an accountant before a long-lived session (a Realtime WebSocket) starts. */
export interface SessionAdmissionRequest {
  /** Who calls: what `CallAccounting.authenticate` returned. */
  caller: unknown;
  /** The `Authorization` value the caller authenticated with, to tell later whether it still holds (e.g. a rotated secret's grace period). */
  authorization?: string;
  operation: 'realtime';
  /** The model id the client sent. */
  model: string;
  /** The plan of the model (its realtime-capable deployments). */
  plan: RoutePlan;
  /** The id of the upgrade request. */
  requestId: string;
  /** The session's id (`sess_…`), written on every ledger row of the session. */
  sessionId: string;
}

/** One response of a session, reported once its `response.done` arrived (or the session ended in the middle of it). */
export interface SessionResponseReport {
  /** The upstream's response id (`resp_…`), or the gateway's own when it sent none. */
  responseId: string;
  /** The deployment that served the session. */
  target: RouteTarget;
  /** The usage the upstream reported (tokens), absent when it reported none. */
  usage?: RealtimeUsage;
  /** 200 for a response that ended (`completed`, `cancelled`, `incomplete`, `failed` upstream); 499/502/503 when the session was cut mid-response. */
  status: number;
  /** From `response.create` (or the first event of the response) to `response.done`, ms. */
  latencyMs: number;
  /** From the start of the response to its first event, ms. */
  ttfbMs?: number;
}

/**
 * What admission of a session granted. The session holds a concurrency slot until {@link close}; each response is
 * booked with {@link book}; {@link check} says whether the session may go on (key revoked or expired, budget spent).
 */
export interface SessionTicket {
  /** The plan to use (the admitted plan without what the key may not use). */
  plan: RoutePlan;
  /** Headers for the upgrade answer (`x-ratelimit-*`). */
  headers: Record<string, string>;
  /**
   * Books one response: one ledger row (operation `realtime`, the session id), its cost settled against the key's
   * budget. Resolves with the cost in USD once the limits are written. Never rejects.
   */
  book(report: SessionResponseReport): Promise<number>;
  /** The error that ends the session now when the key was revoked or has expired (401), else undefined. Cheap: call it often. */
  checkKey(): GatewayError | undefined;
  /** As {@link checkKey}, and 429 `insufficient_quota` when the key's budget is spent. Never rejects. */
  check(): Promise<GatewayError | undefined>;
  /** Gives the concurrency slot back; call once when the session ends. Never rejects. */
  close(): Promise<void>;
}
