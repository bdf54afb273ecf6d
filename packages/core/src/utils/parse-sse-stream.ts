import { type ParseSSEOptions, type SSEBatch, type ServerSentEvent, sseSplitter } from './sse-splitter.js';
import { SSEBatchReader } from './sse-batch-reader.js';

export type { ParseSSEOptions, SSEBatch, ServerSentEvent } from './sse-splitter.js';

/**
 * Parses a byte stream of `text/event-stream` into events as they arrive, using eventsource-parser
 * (handles CRLF/LF framing, multi-line data, `:` comment lines, `retry:`). Events are yielded in order,
 * without waiting for the stream to end. A last event not followed by a blank line is still delivered at the end.
 * Lines that are not SSE fields (a field name that is not a word, e.g. the lines of a bare JSON error body an upstream
 * appends after its events; unknown word-named fields are ignored as the spec says) are collected; once the stream ends, or before the next event, they are thrown as a
 * {@link StrayStreamTextError} carrying their text, so that a stream broken this way never ends as a success.
 * An event longer than `maxEventBytes` throws 502 `upstream_response_too_large` naming the provider and the limit
 * (the parser's buffer never grows past it).
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export async function* parseSSEStream(
  body: AsyncIterable<Uint8Array | string>,
  options: ParseSSEOptions = {},
): AsyncGenerator<ServerSentEvent> {
  const take = sseSplitter(body, options);
  for await (const chunk of body) {
    const { events, error } = take(chunk);
    for (const event of events) yield event;
    if (error) throw error;
  }
  const { events, error } = take(undefined);
  for (const event of events) yield event;
  if (error) throw error;
}

/**
 * {@link parseSSEStream} one network read at a time: yields the events each read of `body` completed, together (no
 * generator step per event, for a consumer that handles many small events, such as a chat stream's chunks), with the
 * read's bytes and event offsets when the read was plain (see {@link SSEBatch}). Same framing, limits and errors (the
 * events before stray text are yielded before it is thrown). A consumer that reads in its own loop can use an
 * {@link SSEBatchReader}, which this wraps, and save a generator per stream.
 */
export async function* parseSSEBatches(
  body: AsyncIterable<Uint8Array | string>,
  options: ParseSSEOptions = {},
): AsyncGenerator<SSEBatch> {
  const reader = new SSEBatchReader(body, options);
  try {
    // A suspended generator keeps the values of all its registers: the batch is let go of before the next read.
    let batch = await reader.next();
    while (batch !== undefined) {
      yield batch;
      batch = undefined;
      batch = await reader.next();
    }
  } finally {
    await reader.close();
  }
}
