import type { CompletionUsage, NativeSSEEvent } from '@switchyard/core';
import { toAnthropicError } from './anthropic-error.js';
import { toChatUsage } from './anthropic-message.js';

/**
 * Anthropic's own stream events -> SSE text, unchanged (`event:` and `data:` as received), so thinking blocks,
 * signatures and cache fields reach the client intact. Reads `message_start` and `message_delta` usage on the way and
 * hands the total (as chat usage, tokens) to `onUsage` at the end, for metering. A transport failure after the first
 * event ends the stream with one Anthropic `error` event (it never throws).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* passThroughEvents(
  events: AsyncIterable<NativeSSEEvent>,
  onUsage?: (usage: CompletionUsage) => void,
): AsyncGenerator<string> {
  let usage: Record<string, number> = {};
  const read = (event: NativeSSEEvent) => {
    if (event.event !== 'message_start' && event.event !== 'message_delta') return;
    try {
      const data = JSON.parse(event.data) as {
        message?: { usage?: Record<string, number> };
        usage?: Record<string, number>;
      };
      const found = data.message?.usage ?? data.usage;
      if (found)
        usage = { ...usage, ...Object.fromEntries(Object.entries(found).filter(([, v]) => typeof v === 'number')) };
    } catch {
      // Not JSON: passed through as it is; usage stays as it was.
    }
  };
  try {
    for await (const event of events) {
      read(event);
      yield `event: ${event.event}\ndata: ${event.data}\n\n`;
    }
  } catch (error) {
    yield `event: error\ndata: ${JSON.stringify(toAnthropicError(error).body)}\n\n`;
  } finally {
    onUsage?.(toChatUsage(usage));
  }
}
