import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { PlanOutcome } from '../routing/execute-plan.js';
import type { Metered } from './call-metering.js';
import { usageOf } from '../accounting/usage-of.js';
import type { GatewayCallResult } from './gateway-options.js';

/**
 * `{images}`: how many images an images answer (ImagesResponse: `created` and `data`) carries, the entries of its
 * `data`; else `{}` (embeddings lists have `data` but no `created`).
 */
function imagesOf(data: unknown): { images?: number } {
  const answer = data as { created?: unknown; data?: unknown } | null;
  return typeof answer?.created === 'number' && Array.isArray(answer.data) ? { images: answer.data.length } : {};
}

/**
 * Builds what a gateway call resolves with from the plan's outcome: `data`, who served it (provider, upstream model,
 * fallback model) and how (attempts, warnings). Under accounting a non-streamed call is settled here, booked as a
 * 200 with the usage read from `data` (tokens), and its cost (USD) is returned as `costUsd`; streams are settled when
 * they end (see `settleStream`).
 */
export function toCallResult<T>(
  model: string,
  outcome: PlanOutcome<unknown>,
  warnings: GatewayWarning[],
  data: T,
  metered?: Metered,
): GatewayCallResult<T> {
  const { target } = outcome;
  let costUsd: number | undefined;
  if (metered && !metered.stream) {
    const latencyMs = performance.now() - metered.startedAt;
    costUsd = metered.ticket.settle({
      status: 200,
      target,
      usage: usageOf(data),
      ...imagesOf(data),
      attempts: metered.attempts,
      latencyMs,
      ttfbMs: latencyMs,
      stream: false,
    });
  }
  return {
    data,
    model,
    servedModel: target.model,
    attempts: outcome.attempts,
    attemptRecords: outcome.records,
    provider: target.provider,
    upstreamModel: target.upstreamModel,
    warnings,
    target,
    headers: metered?.ticket.headers ?? {},
    costUsd,
  };
}
