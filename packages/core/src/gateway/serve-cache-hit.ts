import { randomUUID } from 'node:crypto';
import type { CallAccounting, CallTicket } from '../accounting/call-accounting.js';
import { ADMITTING, type Booking } from './booked-call-options.js';
import { abortedStatus } from './call-metering.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
import { type StreamSummary, wrapChunkStream } from './wrap-chunk-stream.js';
import type { CachedResponse } from '../cache/cached-response.js';
import { type CacheableOperation, replayChunks } from '../cache/response-cache.js';

/** What {@link serveCacheHit} needs to know about the call. */
export interface CacheHitCall {
  operation: CacheableOperation;
  /** The validated request (`model`: the id the client sent). */
  request: Record<string, unknown>;
  options: GatewayCallOptions;
  /** The plan the call would have run (for admission, and the deployment named in the result). */
  plan: RoutePlan;
  accounting?: CallAccounting;
  entry: CachedResponse;
}

/** The deployment that served the cached answer when it is still in the plan, else the plan's first. */
function servingTarget(plan: RoutePlan, entry: CachedResponse): RouteTarget {
  for (const model of plan.models) {
    if (model.id !== entry.servedModel) continue;
    const target = model.targets.find((t) => t.provider === entry.provider && t.upstreamModel === entry.upstreamModel);
    if (target) return target;
  }
  return plan.models[0]!.targets[0]!;
}

/**
 * Answers a call from the cache. Under accounting the call is still admitted (it counts as a request for rpm limits;
 * a 429 or 403 is thrown as for any call) and booked with status 200, no tokens, cost 0 and `cacheHit`. A streamed
 * answer replays the cached chunks (without the usage chunk unless `stream_options.include_usage`); it is booked when
 * the replay ends (499 when the client went away first), and `finished` resolves then.
 */
export async function serveCacheHit(call: CacheHitCall): Promise<GatewayCallResult<unknown>> {
  const { operation, request, options, plan, accounting, entry } = call;
  const startedAt = performance.now();
  const stream = entry.kind === 'chunks';
  let ticket: CallTicket | undefined;
  if (accounting) {
    const admitting = (options as Partial<Booking>)[ADMITTING];
    if (admitting) admitting.started = true;
    const requestId = options.requestId ?? randomUUID();
    ticket = await accounting.admit({
      caller: options.caller,
      operation,
      model: plan.model,
      plan,
      request,
      requestId,
      stream,
    });
    if (admitting) admitting.ticket = ticket;
  }
  const target = servingTarget(ticket?.plan ?? plan, entry);
  const result = {
    model: plan.model,
    servedModel: entry.servedModel,
    attempts: 0,
    attemptRecords: [],
    provider: entry.provider,
    upstreamModel: entry.upstreamModel,
    warnings: entry.warnings,
    target,
    headers: ticket?.headers ?? {},
    cache: 'hit' as const,
  };
  if (entry.kind !== 'chunks') {
    const latencyMs = performance.now() - startedAt;
    const costUsd = ticket?.settle({
      status: 200,
      target,
      attempts: [],
      latencyMs,
      ttfbMs: latencyMs,
      stream: false,
      cacheHit: true,
    });
    return { ...result, data: entry.body, costUsd };
  }
  const summary: StreamSummary = {};
  let finish!: (summary: StreamSummary) => void;
  const finished = new Promise<StreamSummary>((resolve) => (finish = resolve));
  const includeUsage = (request.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  const wrapped = wrapChunkStream(replayChunks(entry), summary, !includeUsage, false, undefined, plan.model);
  const ttfbMs = performance.now() - startedAt;
  const signal = options.signal;
  const settled = (async function* () {
    try {
      yield* wrapped;
    } finally {
      const status = summary.completed
        ? 200
        : signal?.aborted
          ? abortedStatus(signal)
          : summary.error === undefined
            ? 499
            : 500;
      ticket?.settle({
        status,
        target,
        attempts: [],
        latencyMs: performance.now() - startedAt,
        ttfbMs,
        stream: true,
        cacheHit: true,
      });
      await ticket?.settled?.();
      finish(summary);
    }
  })();
  return { ...result, data: settled, finished };
}
