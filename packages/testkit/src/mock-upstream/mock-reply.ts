/**
 * What the mock upstream answers to one request. Fields combine: `delayMs` waits before the status line, then the
 * body is `json`, `body`, or `chunks` (written one by one with `chunkDelayMs` between them, so streams arrive as
 * separate network writes). Faults: `reset` destroys the socket before any byte is sent; `resetAfterChunks`
 * destroys it after that many chunks (a stream that breaks off); `hang` sends nothing until the client gives up.
 */
export interface MockReply {
  /** HTTP status. Default 200. */
  status?: number;
  /** Response headers. `content-type` defaults to JSON for `json`, `text/event-stream` for `chunks`. */
  headers?: Record<string, string>;
  /** A JSON body (serialised with `JSON.stringify`). */
  json?: unknown;
  /** A raw body, sent in one write. */
  body?: string | Uint8Array;
  /** A body sent as separate writes, e.g. SSE frames from {@link sseFrames}. */
  chunks?: readonly (string | Uint8Array)[];
  /** Wait before each chunk after the first, ms. */
  chunkDelayMs?: number;
  /**
   * Awaited before chunk `index` (0-based) is written, or the connection reset in its place (`resetAfterChunks`), and
   * before `chunkDelayMs`: e.g. a promise the test resolves, to order a stream by events instead of wall-clock delays.
   * The status line and headers are sent before chunk 0's wait.
   */
  beforeChunk?: (index: number) => void | Promise<void>;
  /** Wait before the status line, ms. */
  delayMs?: number;
  /** Destroy the connection without answering. */
  reset?: boolean;
  /** Destroy the connection after writing this many chunks. */
  resetAfterChunks?: number;
  /** Never answer; the request stays open until the client closes it. */
  hang?: boolean;
}

/** One request the mock upstream received, kept for assertions. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Query parameters (last value wins). */
  query: Record<string, string>;
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body bytes. */
  body: Buffer;
  /** The body as UTF-8 text. */
  bodyText: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** Set to true when the client closed the connection before the reply was complete (an abort). */
  closedByClient: boolean;
}

/**
 * How a route answers: one reply for every call, a sequence (call n gets element n, the last one repeats), or a
 * function of the request and the 0-based call count of this route.
 */
export type MockRoute =
  | MockReply
  | readonly MockReply[]
  | ((request: RecordedRequest, call: number) => MockReply | Promise<MockReply>);
