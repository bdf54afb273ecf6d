import type { z } from 'zod';

/**
 * `schema`, optional, and undefined when the value is of another type instead of failing the whole object: for the
 * fields of an upstream's error body or error event, where one field of the wrong type (a numeric `code`, a `message`
 * that is an object) must not hide the others, and a malformed body must still give the upstream's status. Never use
 * it for what is metered or forwarded as an answer: those fail with 502 `upstream_invalid_response`.
 * @see https://zod.dev/api#catch
 */
export function lenientField<S extends z.ZodType>(schema: S) {
  return schema.optional().catch(undefined);
}
