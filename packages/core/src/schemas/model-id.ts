import { z } from 'zod';
import { invalidRequestError } from '../errors/common-errors.js';

/** Longest `model` id a request may carry, characters. Configured ids and upstream ids longer than this cannot be asked for. */
export const MAX_MODEL_ID_LENGTH = 256;

/**
 * The characters of a `model` id: printable ASCII without spaces (`!` to `~`), which covers every provider's ids
 * (`gpt-4o-mini`, `openai/gpt-4o`, `accounts/fireworks/models/x`, `llama3:8b`, `@cf/meta/llama`). CR, LF, other
 * control characters and anything outside ASCII are refused: model ids go into response headers, logs and upstream
 * URLs.
 */
export const MODEL_ID_PATTERN = /^[\x21-\x7e]+$/;

const RULE = `at most ${MAX_MODEL_ID_LENGTH} printable ASCII characters without spaces`;

/** The zod schema of a request's `model`: 1 to {@link MAX_MODEL_ID_LENGTH} characters of {@link MODEL_ID_PATTERN}. */
export const modelIdSchema = z
  .string()
  .min(1)
  .max(MAX_MODEL_ID_LENGTH, { error: `model ids are ${RULE}` })
  .regex(MODEL_ID_PATTERN, { error: `model ids are ${RULE}` });

/**
 * Checks a client-supplied model id before anything is keyed on it (limits, logs, the ledger, routing state).
 * Returns it when it is a string of 1 to {@link MAX_MODEL_ID_LENGTH} characters matching {@link MODEL_ID_PATTERN};
 * throws 400 `invalid_request_error` with `param` (default `model`) and code `invalid_model_id` otherwise. The
 * message never repeats the id (it may be megabytes long).
 */
export function checkModelId(value: unknown, param = 'model'): string {
  if (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_MODEL_ID_LENGTH &&
    MODEL_ID_PATTERN.test(value)
  )
    return value;
  const what =
    typeof value !== 'string'
      ? `expected a string`
      : value.length === 0
        ? 'it is empty'
        : value.length > MAX_MODEL_ID_LENGTH
          ? `it has ${value.length} characters`
          : 'it contains a space, a control character or a non-ASCII character';
  throw invalidRequestError(`Invalid '${param}': model ids are ${RULE}; ${what}.`, param, 'invalid_model_id');
}
