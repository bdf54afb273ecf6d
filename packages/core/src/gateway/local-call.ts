import { randomUUID } from 'node:crypto';
import type { CallAccounting, CallOperation } from '../accounting/call-accounting.js';
import { ADMITTING, type Booking } from './booked-call-options.js';
import { statusOf } from './call-metering.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import type { RoutePlan } from '../model/route-plan.js';

/**
 * Validates a count_tokens body for `Gateway.anthropicCountTokens` (throws its 400) and gives the request and how to
 * estimate its tokens when no deployment counts natively.
 */
export type CountTokensPreparer = (body: unknown) => {
  request: Record<string, unknown> & { model: string };
  estimate: () => Promise<number>;
};

/** What {@link runLocalCall} needs: the call's operation, request, plan (for admission) and the work it does. */
export interface LocalCall<T> {
  accounting: CallAccounting | undefined;
  operation: CallOperation;
  /** The validated request (`model` is the id the client sent). */
  request: Record<string, unknown> & { model: string };
  /** The model's route plan: admission narrows it to what the key may use (its allow-list). */
  plan: RoutePlan;
  options: GatewayCallOptions;
  /** The answer, computed in the gateway without an upstream call (e.g. a token estimate). */
  work: () => Promise<T>;
}

/**
 * A call the gateway answers itself, admitted and booked like any other: under accounting it is admitted with the
 * key's allow-list and limits (a model the key may not use is a 403; what is reserved follows the operation's estimate),
 * then settled as a 200 with no upstream attempt (or the work's failure status), so it gets its ledger row. The
 * answer is attributed to the plan's first deployment the key may use. Throws what admission or `work` throws.
 */
export async function runLocalCall<T>(call: LocalCall<T>): Promise<GatewayCallResult<T>> {
  const { accounting, operation, request, options } = call;
  const startedAt = performance.now();
  const requestId = options.requestId ?? randomUUID();
  let plan = call.plan;
  let ticket: Awaited<ReturnType<CallAccounting['admit']>> | undefined;
  if (accounting) {
    const admitting = (options as Partial<Booking>)[ADMITTING];
    if (admitting) admitting.started = true;
    ticket = await accounting.admit({
      caller: options.caller,
      operation,
      model: request.model,
      plan,
      request,
      requestId,
      stream: false,
      ...(options.labels && { labels: options.labels }),
    });
    if (admitting) admitting.ticket = ticket;
    plan = ticket.plan;
  }
  const target = plan.models[0]!.targets[0]!;
  let data: T;
  try {
    data = await call.work();
  } catch (error) {
    ticket?.settle({ status: statusOf(error), attempts: [], latencyMs: performance.now() - startedAt, stream: false });
    throw error;
  }
  const latencyMs = performance.now() - startedAt;
  const costUsd = ticket?.settle({ status: 200, target, attempts: [], latencyMs, ttfbMs: latencyMs, stream: false });
  return {
    data,
    model: request.model,
    servedModel: target.model,
    attempts: 0,
    attemptRecords: [],
    provider: target.provider,
    upstreamModel: target.upstreamModel,
    warnings: [],
    target,
    headers: ticket?.headers ?? {},
    costUsd,
  };
}
