/** One server-sent event as an upstream sent it: the `event:` name and the `data:` text (unparsed). */
export interface NativeSSEEvent {
  event: string;
  data: string;
}

import type { CompletionUsage } from '../schemas/completion-usage.js';

/**
 * What an adapter's Anthropic Messages pass-through answers: the upstream's JSON `message` unchanged, or (when the
 * request had `stream: true`) its server-sent events unchanged, in order, as they arrive. `usage` is the call's usage in chat terms (tokens), for metering: a value for JSON, a
 * function read once the stream has ended for events.
 */
export type NativeMessagesResult =
  | { json: unknown; usage?: CompletionUsage }
  | { events: AsyncIterable<NativeSSEEvent>; usage?: () => CompletionUsage | undefined };
