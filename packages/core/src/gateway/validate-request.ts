import type { z } from 'zod';
import { fromZodError } from '../errors/from-zod-error.js';
import { invalidRequestError } from '../errors/common-errors.js';

/**
 * Validates a parsed JSON body against a request schema. Throws 400 `invalid_request_error` naming the
 * offending field when it does not match, or when the body is not a JSON object at all. `isPlain`, a hand-written
 * check that is true only for bodies that certainly match (e.g. `isPlainChatCompletionRequest`), lets those skip zod:
 * the body itself is returned; every other body, and so every error, goes through zod.
 */
export function validateRequest<S extends z.ZodType>(
  schema: S,
  body: unknown,
  isPlain?: (body: unknown) => boolean,
): z.infer<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequestError('The request body must be a JSON object.', null, 'invalid_body');
  }
  if (isPlain?.(body)) return body as z.infer<S>;
  const result = schema.safeParse(body);
  if (!result.success) throw fromZodError(result.error, body);
  return result.data;
}
