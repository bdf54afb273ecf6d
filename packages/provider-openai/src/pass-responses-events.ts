import type { NativeSSEEvent, ServerSentEvent } from '@switchyard/core';

/** The events whose `response` carries the final `usage` of a streamed response. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * OpenAI's Responses stream events as they arrived (`event:` name, `data:` text with `sequence_number`), for the
 * Responses pass-through: nothing is changed. The final event's `response.usage` (Responses usage, tokens) goes to
 * `onUsage`. Events without a name take the `type` of their data, as OpenAI always names them. `onEvent`, when given,
 * sees each event's name and data first (the adapter reads `error` / `response.failed` with it, to book the call as
 * failed).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export async function* passResponsesEvents(
  events: AsyncIterable<ServerSentEvent>,
  onUsage?: (usage: Record<string, unknown>) => void,
  onEvent?: (name: string, data: string) => void,
): AsyncGenerator<NativeSSEEvent> {
  for await (const event of events) {
    const name = event.event ?? (/"type"\s*:\s*"([^"]+)"/.exec(event.data)?.[1] ?? 'message');
    onEvent?.(name, event.data);
    if (onUsage && FINAL_EVENTS.has(name)) {
      try {
        const usage = (JSON.parse(event.data) as { response?: { usage?: Record<string, unknown> | null } }).response?.usage;
        if (usage && typeof usage === 'object') onUsage(usage);
      } catch {
        // Not JSON: passed on unchanged; the call is metered without usage.
      }
    }
    yield { event: name, data: event.data };
  }
}
