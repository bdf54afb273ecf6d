import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One server-sent event: `event` is the `event:` field (absent for plain `data:` events), `data` its data. */
export type ServerSentEvent = EventSourceMessage;

/**
 * Parses a byte stream of `text/event-stream` into events as they arrive, using eventsource-parser
 * (handles CRLF/LF framing, multi-line data, `:` comment lines, `retry:`). Events are yielded in order,
 * without waiting for the stream to end. A last event not followed by a blank line is still delivered at the end.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export async function* parseSSEStream(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  const pending: ServerSentEvent[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (pending.length > 0) yield pending.shift()!;
  }
  // A body that ends right after its last data line (no blank line) still delivers that event.
  parser.feed(`${decoder.decode()}\n\n`);
  parser.reset({ consume: true });
  while (pending.length > 0) yield pending.shift()!;
}
