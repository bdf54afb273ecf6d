/** One server-sent event as an upstream sent it: the `event:` name and the `data:` text (unparsed). */
export interface NativeSSEEvent {
  event: string;
  data: string;
}

import type { GatewayError } from '../errors/gateway-error.js';
import type { CompletionUsage } from '../schemas/completion-usage.js';

/**
 * What an adapter's Anthropic Messages pass-through answers: the upstream's JSON `message` unchanged, or (when the
 * request had `stream: true`) its server-sent events unchanged, in order, as they arrive. `usage` is the call's usage in chat terms (tokens), for metering: a value for JSON, a
 * function read once the stream has ended for events. `error`, read once a stream has ended, is the failure the
 * upstream reported inside the stream (an `error` event, a `response.failed`), with the status it implies (else 502):
 * the events are still passed on as they are, but the call is booked as that failure, not as a success.
 */
export type NativeMessagesResult =
  | { json: unknown; usage?: CompletionUsage }
  | {
      events: AsyncIterable<NativeSSEEvent>;
      usage?: () => CompletionUsage | undefined;
      error?: () => GatewayError | undefined;
    };
