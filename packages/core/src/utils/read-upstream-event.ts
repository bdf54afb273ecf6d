import type { z } from 'zod';
import { upstreamInvalidResponseError } from '../errors/common-errors.js';
import { describeIssue } from './upstream-request.js';

/**
 * Reads the `data` of one upstream stream event (a server-sent event's data, an event-stream frame's payload, a line
 * of a JSON-lines body: JSON text) through `schema`, a zod schema of the fields the adapter reads (unknown fields
 * kept), and returns the parsed value. The stream readers (`parseSSEStream`, `parseSSEBatches`) split a body into
 * events as text and never parse JSON; every adapter reads each event's JSON through this function (or a hand-written
 * check that vouches for a zod schema, as `checkChatCompletionChunk` does), never by a cast.
 * Throws 502 `upstream_invalid_response` naming the provider when `data` is not JSON ("a stream event is not valid
 * JSON") or does not match (`describe` names the event, e.g. "a 'contentBlockDelta' event"; the first offending field
 * follows). In a stream after its first byte the gateway turns the error into an error event.
 */
export function readUpstreamEvent<T>(
  provider: string,
  schema: z.ZodType<T>,
  data: string,
  describe = 'a stream event',
): T {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    throw upstreamInvalidResponseError(provider, `${describe} is not valid JSON.`, error);
  }
  return checkUpstreamEvent(provider, schema, value, describe);
}

/**
 * {@link readUpstreamEvent} for an event already parsed (`value`, e.g. after a look at its `type`): checked with
 * `schema`, the parsed copy returned. Throws 502 `upstream_invalid_response` naming the provider and the first
 * offending field when it does not match.
 */
export function checkUpstreamEvent<T>(
  provider: string,
  schema: z.ZodType<T>,
  value: unknown,
  describe = 'a stream event',
): T {
  const checked = schema.safeParse(value);
  if (!checked.success)
    throw upstreamInvalidResponseError(
      provider,
      `${describe} does not have the documented shape (${describeIssue(checked.error)}).`,
    );
  return checked.data;
}
