import {
  type GatewayError,
  type SessionAdmissionRequest,
  type SessionResponseReport,
  type SessionTicket,
  authenticationError,
} from '@switchyard/core';
import type { Admission } from './admission.js';
import type { KeyAccountsPort } from './key-accounts-port.js';
import type { Principal } from './principal.js';
import { targetPrice } from './catalog-price.js';
import { filterPlanForKey } from './filter-plan.js';
import { computeRealtimeCostUsd } from './realtime-cost.js';
import type { UsageRow } from './usage-row.js';

/** Books a session refused at admission (its status, no cost); `extra` are the row's labels. */
export type SessionRefusal = (
  requestId: string,
  keyId: string,
  model: string,
  status: number,
  extra: Partial<UsageRow>,
) => void;

/**
 * Admits a Realtime session for {@link Accounts}: the key's allow-list (fallbacks filtered, unpriced deployments left
 * out for keys with a budget), one request of its rpm, a concurrency slot held until `close()`, and its budget (refused
 * with 429 `insufficient_quota` when already spent: a session reserves nothing up front, its responses are booked as
 * they end). Each `book()` writes one ledger row (operation `realtime`, `session_id`, the response id as request id,
 * tokens `input_tokens`/`output_tokens`, cost from {@link computeRealtimeCostUsd}) and settles its cost against the
 * budget window current at that moment. Throws 401/403/429/503 as `Accounts.admit`, booked through `refused`.
 */
export async function admitSession(
  accounts: KeyAccountsPort,
  request: SessionAdmissionRequest,
  refused: SessionRefusal,
): Promise<SessionTicket> {
  const principal = request.caller as Principal | undefined;
  if (!principal || (principal.kind !== 'static' && principal.kind !== 'virtual'))
    throw authenticationError('No caller: authenticate the session first.');
  const keyId = principal.kind === 'virtual' ? principal.state.key.id : 'static';
  let plan = request.plan;
  let admission: Admission;
  try {
    if (principal.kind === 'virtual') {
      const { team, organization } = accounts.groupsOf(principal.state.key);
      plan = filterPlanForKey(plan, principal.state.key, team, organization);
    }
    admission = await accounts.admit(principal, request.plan.models[0]?.id ?? request.model, { tokens: 0, costUsd: 0 });
  } catch (error) {
    refused(request.requestId, keyId, request.model, (error as GatewayError).status ?? 500, {
      operation: 'realtime',
      session_id: request.sessionId,
    });
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    plan,
    headers: admission.headers,
    book: async (report: SessionResponseReport) => {
      const { price, source } = targetPrice(report.target);
      const costUsd = computeRealtimeCostUsd(price, report.usage);
      const window =
        principal.kind === 'virtual' && principal.state.key.budget_usd !== null
          ? principal.state.budgetWindow(Date.now(), accounts.budgetTimeZone).id
          : undefined;
      const row: Omit<UsageRow, 'key_id'> = {
        request_id: report.responseId,
        model: request.model,
        provider: report.target.provider,
        upstream_model: report.target.upstreamModel,
        prompt_tokens: report.usage?.input_tokens ?? 0,
        completion_tokens: report.usage?.output_tokens ?? 0,
        cost_usd: costUsd,
        price_source: source,
        latency_ms: Math.round(report.latencyMs),
        ttfb_ms: report.ttfbMs === undefined ? null : Math.round(report.ttfbMs),
        status: report.status,
        stream: true,
        created_at: Date.now(),
        attempts: 1,
        usage_estimated: report.usage === undefined,
        operation: 'realtime',
        session_id: request.sessionId,
      };
      await accounts.settle(
        principal,
        { reservedTokens: 0, reservedUsd: 0, budgetWindow: window, local: admission.local, headers: {} },
        row,
      );
      return costUsd;
    },
    checkKey: () => accounts.keyError(principal, request.authorization),
    check: async () => {
      const keyError = accounts.keyError(principal, request.authorization);
      if (keyError) return keyError;
      try {
        return (await accounts.budgetSpent(principal)) ? accounts.budgetSpentError(principal) : undefined;
      } catch {
        return undefined; // the limiter is away: the session goes on, as calls are admitted when it fails open
      }
    },
    close: () => (closed ??= accounts.release(principal, admission)),
  };
}
