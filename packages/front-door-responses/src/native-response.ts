import type { NativeSSEEvent } from '@switchyard/core';
import { encodeResponseErrorEvent } from './map-response-error-code.js';
import type { ResponseObject } from './response-object.js';
import type { ResponsesRequest } from './responses-request-schema.js';

/** Lifecycle events whose data carries the whole `response` object. */
const RESPONSE_EVENTS = new Set([
  'response.created',
  'response.in_progress',
  'response.queued',
  'response.completed',
  'response.incomplete',
  'response.failed',
]);
/** The events that end a stream with the final response. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);
/** The event's `sequence_number`, read without parsing the whole event. */
const SEQUENCE = /"sequence_number"\s*:\s*(\d+)/;

/**
 * An upstream `response` object -> what the client sees: `model` is the id the client asked for (an alias may name
 * another upstream model) and `previous_response_id` the one it sent (the gateway expanded it before passing the
 * request on). Mutates and returns `response`; leaves anything that is not an object alone.
 */
export function presentNativeResponse<T>(response: T, request: ResponsesRequest): T {
  if (!response || typeof response !== 'object') return response;
  const object = response as Record<string, unknown>;
  if ('model' in object && object.model !== request.model) object.model = request.model;
  if (request.previous_response_id) object.previous_response_id = request.previous_response_id;
  return response;
}

/**
 * OpenAI's Responses events, passed through -> SSE text. Events are forwarded as they came (`sequence_number`
 * included); only lifecycle events carrying the `response` object are rewritten by {@link presentNativeResponse}.
 * `onFinal` gets the final response (`response.completed`, `.incomplete` or `.failed`) before that event is sent, so a
 * client may continue from it at once. A failure after the first event ends the stream with one `error` event
 * (`code`, `message`, `param`, the next `sequence_number`); it never throws.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export async function* passNativeResponseEvents(
  events: AsyncIterable<NativeSSEEvent>,
  request: ResponsesRequest,
  onFinal?: (response: ResponseObject) => void | Promise<void>,
): AsyncGenerator<string> {
  let nextSequence = 0;
  try {
    for await (const event of events) {
      let data = event.data;
      if (RESPONSE_EVENTS.has(event.event)) {
        try {
          const parsed = JSON.parse(data) as { sequence_number?: unknown; response?: ResponseObject };
          if (parsed.response && typeof parsed.response === 'object') {
            presentNativeResponse(parsed.response, request);
            data = JSON.stringify(parsed);
            if (FINAL_EVENTS.has(event.event)) await onFinal?.(parsed.response);
          }
        } catch {
          // Not JSON: forwarded as it is.
        }
      }
      const sequence = SEQUENCE.exec(data);
      if (sequence) nextSequence = Number(sequence[1]) + 1;
      yield `event: ${event.event}\ndata: ${data}\n\n`;
    }
  } catch (error) {
    yield encodeResponseErrorEvent(error, nextSequence);
  }
}
