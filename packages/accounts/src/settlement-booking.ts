import type { CallAdmissionRequest, CallLabels, CallSettlement } from '@switchyard/core';
import { targetPrice } from './catalog-price.js';
import { computeCostUsd } from './compute-cost.js';
import type { Admission } from './admission.js';
import type { CallEstimateDetail } from './estimate-call.js';
import type { UsageRow } from './usage-row.js';

/** Tokens and cost of a settled call, summed over its billable attempts (tokens; USD). */
export interface Booked {
  prompt: number;
  completion: number;
  costUsd: number;
  /** True when any part of it was estimated rather than reported by an upstream. */
  estimated: boolean;
}

/** The ledger columns of a call's labels (absent ones left out). */
export function labelColumns(
  labels: CallLabels | undefined,
): Pick<UsageRow, 'session_id' | 'agent_id' | 'parent_agent_id' | 'batch_id'> {
  return {
    ...(labels?.session_id && { session_id: labels.session_id }),
    ...(labels?.agent_id && { agent_id: labels.agent_id }),
    ...(labels?.parent_agent_id && { parent_agent_id: labels.parent_agent_id }),
    ...(labels?.batch_id && { batch_id: labels.batch_id }),
  };
}

/**
 * Who a settled call's ledger row is booked to: its key (`static` for the config's keys) and what its admission noted
 * (team, organisation, end user).
 */
export interface RowOwner {
  keyId: string;
  admission: Admission;
}

/** The ledger columns of who a call is booked to: `key_id`, and the team, organisation and end user of its admission. */
export type OwnerColumns = Pick<UsageRow, 'key_id' | 'team_id' | 'organization_id' | 'end_user'>;

/** The ledger columns of `owner`: its key id, and the admission's team, organisation and end user (absent ones left out). */
export function ownerColumns(owner: RowOwner): OwnerColumns {
  const { admission } = owner;
  const columns: OwnerColumns = { key_id: owner.keyId };
  if (admission.teamId) columns.team_id = admission.teamId;
  if (admission.organizationId) columns.organization_id = admission.organizationId;
  if (admission.endUser) columns.end_user = admission.endUser;
  return columns;
}

/** The ledger row of a call served from the response cache: no upstream attempt, no tokens, no cost. */
export function cacheHitRow(request: CallAdmissionRequest, settlement: CallSettlement, owner: RowOwner): UsageRow {
  return {
    request_id: request.requestId,
    model: request.model,
    provider: settlement.target?.provider ?? null,
    upstream_model: settlement.target?.upstreamModel ?? null,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost_usd: 0,
    price_source: settlement.target ? targetPrice(settlement.target).source : 'none',
    latency_ms: settlement.latencyMs,
    ttfb_ms: settlement.ttfbMs ?? null,
    status: settlement.status,
    stream: settlement.stream,
    created_at: Date.now(),
    attempts: 0,
    usage_estimated: false,
    cache_hit: true,
    operation: request.operation,
    ...(request.labels && labelColumns(request.labels)),
    ...ownerColumns(owner),
  };
}

/**
 * The ledger row of a settled call, made once with every column (`Accounts.settleRow` queues it as it is): the
 * deployment that served it (else the last one tried), the `booked` tokens and cost (`costUsd` times `discount`), where
 * its price came from (`priceSource`), timings, status, the attempts, and its `owner`'s columns.
 */
export function settlementRow(
  request: CallAdmissionRequest,
  settlement: CallSettlement,
  priceSource: UsageRow['price_source'],
  booked: Booked,
  discount: number,
  owner: RowOwner,
): UsageRow {
  const { attempts } = settlement;
  const target = settlement.target ?? attempts.at(-1)?.target;
  let hedged = false;
  for (const attempt of attempts) hedged ||= attempt.hedged === true;
  return {
    request_id: request.requestId,
    model: request.model,
    provider: target?.provider ?? null,
    upstream_model: target?.upstreamModel ?? null,
    prompt_tokens: booked.prompt,
    completion_tokens: booked.completion,
    cost_usd: booked.costUsd * discount,
    price_source: priceSource,
    latency_ms: settlement.latencyMs,
    ttfb_ms: settlement.ttfbMs ?? null,
    status: settlement.status,
    stream: settlement.stream,
    created_at: Date.now(),
    attempts: attempts.length,
    usage_estimated: booked.estimated,
    ...(hedged && { hedged: true }),
    ...(settlement.streamFailover && { stream_failover: true }),
    operation: request.operation,
    ...(request.labels && labelColumns(request.labels)),
    ...ownerColumns(owner),
  };
}

/**
 * What the attempts whose answer was not used cost (timeouts, client gone, a hedge's loser, a stream that broke before
 * failing over), each at its deployment's price: the usage its upstream reported, else the prompt estimate plus the
 * text it delivered (characters / 4, marked estimated). Every attempt when the call was not answered, else all but the
 * last.
 */
export function unusedAttemptsBooked(settlement: CallSettlement, estimate: CallEstimateDetail): Booked {
  const { attempts } = settlement;
  // Read in place (no copy of the list): all but the last attempt when the call was answered.
  const unused = settlement.target !== undefined ? attempts.length - 1 : attempts.length;
  const base: Booked = { prompt: 0, completion: 0, costUsd: 0, estimated: false };
  for (let i = 0; i < unused; i++) {
    const attempt = attempts[i];
    if (!attempt?.billable) continue;
    if (attempt.usage?.prompt_tokens !== undefined || attempt.usage?.completion_tokens !== undefined) {
      const prompt = attempt.usage.prompt_tokens ?? 0;
      const completion = attempt.usage.completion_tokens ?? 0;
      base.prompt += prompt;
      base.completion += completion;
      base.costUsd += computeCostUsd(targetPrice(attempt.target, prompt).price, prompt, completion, attempt.usage);
      continue;
    }
    const completion = Math.ceil((attempt.completionText ?? '').length / 4);
    base.prompt += estimate.promptTokens;
    base.completion += completion;
    base.costUsd += computeCostUsd(
      targetPrice(attempt.target, estimate.promptTokens).price,
      estimate.promptTokens,
      completion,
    );
    base.estimated = true;
  }
  return base;
}
