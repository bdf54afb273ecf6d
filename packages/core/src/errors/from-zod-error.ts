import type { z } from 'zod';
import { GatewayError } from './gateway-error.js';
import type { GatewayErrorCode } from './gateway-error-codes.js';

/** Formats a zod issue path as OpenAI does for `param`: `messages[0].content`. */
export function formatParamPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describe(issue: z.core.$ZodIssue, missing: boolean): { detail: string; code: GatewayErrorCode } {
  switch (issue.code) {
    case 'too_big':
      return {
        detail: `${issue.origin === 'array' ? 'array too long' : issue.origin === 'string' ? 'string too long' : 'value above maximum'}. Expected ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}.`,
        code:
          issue.origin === 'array'
            ? 'array_above_max_length'
            : issue.origin === 'string'
              ? 'string_above_max_length'
              : 'decimal_above_max_value',
      };
    case 'too_small':
      return {
        detail: `${issue.origin === 'array' ? 'array too short' : issue.origin === 'string' ? 'string too short' : 'value below minimum'}. Expected ${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}.`,
        code:
          issue.origin === 'array'
            ? 'array_below_min_length'
            : issue.origin === 'string'
              ? 'string_below_min_length'
              : 'decimal_below_min_value',
      };
    case 'invalid_type':
      return missing
        ? { detail: 'missing required parameter.', code: 'missing_required_parameter' }
        : { detail: `expected ${issue.expected}.`, code: 'invalid_type' };
    case 'invalid_value':
      return {
        detail: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`,
        code: 'invalid_value',
      };
    default:
      return { detail: `${issue.message}.`, code: 'invalid_value' };
  }
}

/** Ranks a union branch's issue: a branch whose type matched but whose value broke a rule says most. */
function specificity(issue: z.core.$ZodIssue): number {
  return issue.path.length * 2 + (issue.code === 'invalid_type' ? 0 : 1);
}

/**
 * Turns a zod validation failure of a request into a 400 `invalid_request_error` that names the first
 * offending field in `param` and in the message, e.g. `Invalid 'temperature': value above maximum. Expected at most 2.`
 * `input` is the validated body, used to tell a missing field from a wrongly typed one.
 */
export function fromZodError(error: z.ZodError, input?: unknown): GatewayError {
  const issue = error.issues[0];
  if (!issue) return new GatewayError({ status: 400, type: 'invalid_request_error', message: 'Invalid request.' });
  let path: PropertyKey[] = [...issue.path];
  let deepest = issue;
  // A union failure: report the branch that got furthest, so the message names the real field and rule.
  while (deepest.code === 'invalid_union' && deepest.errors.length > 0) {
    const candidates = deepest.errors.flat();
    const best = candidates.reduce((a, b) => (specificity(b) > specificity(a) ? b : a), candidates[0]!);
    path = [...path, ...best.path];
    deepest = best;
  }
  const param = formatParamPath(path);
  const { detail, code } = describe(deepest, valueAt(input, path) === undefined);
  const message = param === '' ? `Invalid request body: ${detail}` : `Invalid '${param}': ${detail}`;
  return new GatewayError({ status: 400, type: 'invalid_request_error', message, param: param || null, code });
}
