import { type NativeSSEEvent, type ServerSentEvent, readUpstreamEvent } from '@switchyard/core';
import { type ResponsesUsage, responsesFinalEventSchema } from './openai-api.js';

/** The events whose `response` carries the final `usage` of a streamed response. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * OpenAI's Responses stream events as they arrived (`event:` name, `data:` text with `sequence_number`), for the
 * Responses pass-through: nothing is changed. The final event's `response.usage` (Responses usage, tokens) goes to
 * `onUsage`. Events without a name take the `type` of their data, as OpenAI always names them. `onEvent`, when given,
 * sees each event's name and data first (the adapter reads `error` / `response.failed` with it, to book the call as
 * failed). A final event whose data is not JSON or not of `responsesFinalEventSchema` throws 502
 * `upstream_invalid_response` naming `provider` (the gateway ends the stream with an error event).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export async function* passResponsesEvents(
  events: AsyncIterable<ServerSentEvent>,
  onUsage?: (usage: ResponsesUsage) => void,
  onEvent?: (name: string, data: string) => void,
  provider = 'openai',
): AsyncGenerator<NativeSSEEvent> {
  for await (const event of events) {
    const name = event.event ?? /"type"\s*:\s*"([^"]+)"/.exec(event.data)?.[1] ?? 'message';
    onEvent?.(name, event.data);
    if (onUsage && FINAL_EVENTS.has(name)) {
      // The usage is metered: read through its schema (a count that is not a token count is a 502, never booked).
      const usage = readUpstreamEvent(provider, responsesFinalEventSchema, event.data, `a '${name}' event`).response
        .usage;
      if (usage) onUsage(usage);
    }
    yield { event: name, data: event.data };
  }
}
