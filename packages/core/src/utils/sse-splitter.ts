import { isAscii, isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { splitPlainSSEBytes } from './split-plain-sse-bytes.js';
import { splitPlainSSEText } from './split-plain-sse-text.js';
import { StrayStreamTextError } from './stray-stream-text-error.js';
import { resolveBodyLimits, upstreamBodyInfo, upstreamResponseTooLargeError } from './upstream-body-limits.js';

/** One server-sent event: `event` is the `event:` field (absent for plain `data:` events), `data` its data. */
export type ServerSentEvent = EventSourceMessage;

/**
 * The events one network read of an SSE body completed (`parseSSEBatches`). When the read was plain (valid UTF-8,
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

/** Options of `parseSSEStream`. */
export interface ParseSSEOptions {
  /** Provider name for errors. Default: the one `sendUpstreamRequest` registered for `body`. */
  provider?: string;
  /** Largest single event, bytes. Default: the provider's `maxEventBytes` (8 MiB unless configured). */
  maxEventBytes?: number;
  /**
   * `parseSSEBatches` only: when its consumer stops early without an error (it saw the stream's end marker, e.g.
   * `data: [DONE]`), a Node stream `body` is not destroyed but read to its end and the rest discarded, so the upstream
   * connection is reused without an abort (destroying an unfinished body costs an AbortError with a stack trace); at
   * most 64 KiB within 1 s (`DRAIN_LIMITS`), past which it is destroyed.
   * A consumer that stops for any other reason (the client left) must destroy `body` itself. Default false.
   */
  drainOnReturn?: boolean;
  /**
   * `parseSSEBatches` only: a plain read (see {@link SSEBatch}) is not decoded or split into events: it comes as
   * its `bytes` and `ends` with `events` empty (no strings or objects per event). Default false.
   */
  plainAsBytes?: boolean;
}

/**
 * The event splitter shared by `parseSSEStream`, `parseSSEBatches` and {@link SSEBatchReader} (internal): `take(chunk)` feeds one read of
 * the body (`undefined` once it has ended) and returns the events it completed, in order, and the error to throw after
 * them (stray text before a later event or at the end, an event over `maxEventBytes`). A plain read (see
 * {@link SSEBatch}) that starts where the last event ended is split by {@link splitPlainSSEText} and comes with its
 * bytes and offsets; any other goes through eventsource-parser.
 */
export function sseSplitter(
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
        const ends = splitPlainSSEBytes(chunk as Uint8Array);
        if (ends !== undefined) {
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
