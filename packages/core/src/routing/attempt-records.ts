import { GatewayError } from '../errors/gateway-error.js';
import type { AttemptRecord } from './plan-types.js';

const attemptRecords = new WeakMap<object, AttemptRecord[]>();

/** The attempts behind a failed call's error (as thrown by `executePlan`), or undefined for other errors. */
export function attemptRecordsOf(error: unknown): AttemptRecord[] | undefined {
  return typeof error === 'object' && error !== null ? attemptRecords.get(error) : undefined;
}

/**
 * Marks a call's final error with the number of attempts made (the `x-switchyard-attempts` header of a
 * `GatewayError`) and its attempt records (read back with {@link attemptRecordsOf}); returns the same error.
 */
export function withAttempts(error: unknown, attempts: number, records?: AttemptRecord[]): unknown {
  if (GatewayError.isInstance(error))
    (error.headers as Record<string, string>)['x-switchyard-attempts'] = String(attempts);
  if (records && typeof error === 'object' && error !== null) attemptRecords.set(error, records);
  return error;
}
