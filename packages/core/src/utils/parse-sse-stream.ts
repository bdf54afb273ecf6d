import { isAscii, isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { DRAIN_LIMITS } from './drain-limits.js';
import { splitPlainSSEBytes } from './split-plain-sse-bytes.js';
import { splitPlainSSEText } from './split-plain-sse-text.js';
import { StrayStreamTextError } from './stray-stream-text-error.js';
import { resolveBodyLimits, upstreamBodyInfo, upstreamResponseTooLargeError } from './upstream-body-limits.js';

/** One server-sent event: `event` is the `event:` field (absent for plain `data:` events), `data` its data. */
export type ServerSentEvent = EventSourceMessage;

/**
 * The events one network read of an SSE body completed ({@link parseSSEBatches}). When the read was plain (valid UTF-8,
 * only whole `data: <line>\n\n` events, none begun in an earlier read), `bytes` is the read as it came and `ends[i]` the
 * byte offset just past event `i` in it, so that a consumer can forward a run of its events as the upstream's own
 * bytes (`bytes.subarray(ends[i - 1] ?? 0, ends[j])` is events `i..j` exactly as sent). With the option
 * `plainAsBytes`, such a read comes with `events` empty: its events are only in `bytes` (event `i`'s data is the text
 * between its `data: ` and its `\n\n`), for a consumer that reads them without decoding the read.
 */
export interface SSEBatch {
  events: ServerSentEvent[];
  bytes?: Uint8Array;
  ends?: number[];
}

/** Options of {@link parseSSEStream}. */
export interface ParseSSEOptions {
  /** Provider name for errors. Default: the one `sendUpstreamRequest` registered for `body`. */
  provider?: string;
  /** Largest single event, bytes. Default: the provider's `maxEventBytes` (8 MiB unless configured). */
  maxEventBytes?: number;
  /**
   * {@link parseSSEBatches} only: when its consumer stops early without an error (it saw the stream's end marker, e.g.
   * `data: [DONE]`), a Node stream `body` is not destroyed but read to its end and the rest discarded, so the upstream
   * connection is reused without an abort (destroying an unfinished body costs an AbortError with a stack trace); at
   * most 64 KiB within 1 s ({@link DRAIN_LIMITS}), past which it is destroyed.
   * A consumer that stops for any other reason (the client left) must destroy `body` itself. Default false.
   */
  drainOnReturn?: boolean;
  /**
   * {@link parseSSEBatches} only: a plain read (see {@link SSEBatch}) is not decoded or split into events: it comes as
   * its `bytes` and `ends` with `events` empty (no strings or objects per event). Default false.
   */
  plainAsBytes?: boolean;
}

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
 * events before stray text are yielded before it is thrown).
 */
export async function* parseSSEBatches(
  body: AsyncIterable<Uint8Array | string>,
  options: ParseSSEOptions = {},
): AsyncGenerator<SSEBatch> {
  const take = sseSplitter(body, options);
  const readable = options.drainOnReturn ? (body as Partial<Readable>) : undefined;
  const reads = (readable?.iterator ? readable.iterator({ destroyOnReturn: false }) : body)[Symbol.asyncIterator]();
  let settled = false;
  // True once `reads` ended or threw: it is owed no `return()` (what `for await` would call on leaving early).
  let exhausted = false;
  try {
    // Read by hand, not with `for await`: a suspended generator keeps the values of all its registers, so the read and
    // its batch are cleared before the next read is awaited (a held stream keeps neither).
    for (;;) {
      let read: IteratorResult<Uint8Array | string> | undefined;
      try {
        read = await reads.next();
      } catch (error) {
        exhausted = true;
        throw error;
      }
      if (read.done) {
        exhausted = true;
        break;
      }
      let batch: (SSEBatch & { error?: Error }) | undefined = take(read.value);
      read = undefined;
      if (batch.events.length > 0 || batch.ends !== undefined) yield batch;
      if (batch.error) throw batch.error;
      batch = undefined;
    }
    const batch = take(undefined);
    if (batch.events.length > 0) yield batch;
    if (batch.error) throw batch.error;
    settled = true;
  } catch (error) {
    settled = true;
    throw error;
  } finally {
    if (!exhausted) await reads.return?.()?.catch(() => {});
    // Returned early (the consumer saw the end marker): read the rest and discard it, within bounds.
    if (!settled && !readable?.destroyed) {
      if (readable?.iterator) void drainRest(readable as Readable);
      else readable?.resume?.(); // an UpstreamBodyStream, which drains within DRAIN_LIMITS itself
    }
  }
}

/** Reads and discards the rest of `readable` within {@link DRAIN_LIMITS}; a late error is the pool's concern. */
async function drainRest(readable: Readable): Promise<void> {
  let bytes = 0;
  const timer = setTimeout(() => readable.destroy(), DRAIN_LIMITS.maxMs);
  timer.unref();
  try {
    for await (const chunk of readable.iterator({ destroyOnReturn: false })) {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Uint8Array).byteLength;
      if (bytes > DRAIN_LIMITS.maxBytes) {
        readable.destroy();
        break;
      }
    }
  } catch {
    // A late error is the connection pool's concern.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The event splitter shared by {@link parseSSEStream} and {@link parseSSEBatches}: `take(chunk)` feeds one read of
 * the body (`undefined` once it has ended) and returns the events it completed, in order, and the error to throw after
 * them (stray text before a later event or at the end, an event over `maxEventBytes`). A plain read (see
 * {@link SSEBatch}) that starts where the last event ended is split by {@link splitPlainSSEText} and comes with its
 * bytes and offsets; any other goes through eventsource-parser.
 */
function sseSplitter(
  body: AsyncIterable<Uint8Array | string>,
  options: ParseSSEOptions,
): (chunk: Uint8Array | string | undefined) => SSEBatch & { error?: Error } {
  const info = upstreamBodyInfo(body);
  const provider = options.provider ?? info?.provider ?? 'upstream';
  const maxEventBytes = options.maxEventBytes ?? info?.limits.maxEventBytes ?? resolveBodyLimits().maxEventBytes;
  // Bytes received since the last complete event: an upper bound of the event being assembled.
  let sinceEvent = 0;
  // Events and stray lines in arrival order: the events before stray text are still delivered.
  const pending: (ServerSentEvent | { stray: string })[] = [];
  const stray: string[] = [];
  // The parser and the decoder are made at the first read that is not plain (a stream whose every read is plain, the
  // common case for OpenAI-family upstreams, never needs them: a dozen closures and a decoder fewer per held stream).
  let parser: EventSourceParser | undefined;
  let decoder: StringDecoder | undefined;
  // True once the parser's check for a leading BOM is over (a plain read came first: it started with `data: `).
  let pastStart = false;
  const parserOf = (): EventSourceParser => {
    if (parser) return parser;
    parser = createParser({
      onEvent: (event) => pending.push(event),
      onError: (error) => {
        // A field name that is not a word (`{`, `  "error"`) is not an SSE field an upstream meant to send.
        if (error.type === 'unknown-field' && error.line !== undefined && !/^[\w-]+$/.test(error.field ?? ''))
          pending.push({ stray: error.line });
      },
    });
    // eventsource-parser strips a leading BOM, as the SSE spec asks, from its first feed: a blank line ends that check.
    if (pastStart) parser.feed('\n');
    return parser;
  };
  // StringDecoder (V8's UTF-8 decoding, partial characters kept for the next read) is cheaper than TextDecoder per read.
  const decode = (chunk: Uint8Array | string): string =>
    typeof chunk === 'string' ? chunk : (decoder ??= new StringDecoder('utf8')).write(chunk);
  // True while neither the parser nor the decoder holds part of an unfinished event (the last read ended with `\n\n`).
  let atEventStart = true;
  // A plain read's events are complete: a BOM can no longer come first (an ASCII read has none).
  const plainRead = (): void => {
    sinceEvent = 0;
    pastStart = true;
  };
  return (chunk) => {
    if (chunk === undefined) {
      // A body that ends right after its last data line (no blank line) still delivers that event. After plain reads
      // only, nothing is left to parse.
      const rest = decoder?.end() ?? '';
      if (parser !== undefined || rest !== '') {
        const ended = parserOf();
        ended.feed(`${rest}\n\n`);
        ended.reset({ consume: true });
      }
    } else {
      sinceEvent += chunk.length;
      // Only a read of valid UTF-8: its bytes are then exactly the encoding of its text.
      const candidate = atEventStart && stray.length === 0 && typeof chunk !== 'string';
      const ascii = candidate && isAscii(chunk);
      if (options.plainAsBytes && (ascii || (candidate && isUtf8(chunk)))) {
        const ends: number[] = [];
        if (splitPlainSSEBytes(chunk as Uint8Array, ends)) {
          plainRead();
          return { events: [], bytes: chunk as Uint8Array, ends };
        }
      }
      const text = decode(chunk);
      if (!options.plainAsBytes && (ascii || (candidate && isUtf8(chunk)))) {
        const events: ServerSentEvent[] = [];
        const ends: number[] = [];
        if (splitPlainSSEText(text, events, ends)) {
          // Beyond ASCII, characters and bytes differ: each event ends at the next line feed's blank line (a line feed
          // byte is never part of a longer UTF-8 sequence, and a plain event's data holds none).
          if (!ascii) for (let i = 0, at = 0; i < ends.length; i++) ends[i] = at = chunk.indexOf(10, at) + 2;
          plainRead();
          return { events, bytes: chunk, ends };
        }
      }
      parserOf().feed(text);
      pastStart = true;
      atEventStart = text.endsWith('\n\n');
      if (pending.length > 0) sinceEvent = 0;
      else if (sinceEvent > maxEventBytes)
        return { events: [], error: upstreamResponseTooLargeError(provider, 'maxEventBytes', maxEventBytes) };
    }
    const events: ServerSentEvent[] = [];
    let error: Error | undefined;
    for (const item of pending) {
      if ('stray' in item) stray.push(item.stray);
      else if (stray.length > 0) {
        error = new StrayStreamTextError(stray.join('\n'));
        break;
      } else events.push(item);
    }
    pending.length = 0;
    if (!error && chunk === undefined && stray.length > 0) error = new StrayStreamTextError(stray.join('\n'));
    return { events, error };
  };
}
