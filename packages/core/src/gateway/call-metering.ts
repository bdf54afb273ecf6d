import { GatewayError } from '../errors/gateway-error.js';
import type { CompletionUsage } from '../schemas/completion-usage.js';
import type { AttemptReport, CallTicket } from './call-accounting.js';

/** An admitted call being metered: its ticket, attempts so far and timings (ms, `performance.now()`). */
export interface Metered {
  ticket: CallTicket;
  attempts: AttemptReport[];
  startedAt: number;
  stream: boolean;
}

export const ADMITTING = Symbol('admitting');
/** Per-call flag: set once admission started (from then on, admission and settlement book the call). */
export interface Booking {
  [ADMITTING]: { started: boolean };
}

/** The HTTP status a failed call is booked with: a GatewayError's own, else 500. */
export function statusOf(error: unknown): number {
  return GatewayError.isInstance(error) ? error.status : 500;
}

/** The usage of an answer (`usage`, or `body.usage` for wrapped results), when it has one. */
export function usageOf(data: unknown): Partial<CompletionUsage> | undefined {
  const value = data as { usage?: Partial<CompletionUsage>; body?: { usage?: Partial<CompletionUsage> } } | null;
  const usage = value?.usage ?? value?.body?.usage;
  return usage && typeof usage === 'object' ? usage : undefined;
}
