import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';

/**
 * One event of an upstream chat stream as an adapter's byte scanner found it: `text` is the event's data (one line of
 * chunk JSON, as the upstream sent it). `chunk` is the parsed, checked chunk (its text remembered) when the scanner
 * parsed it: chunks with usage, a `finish_reason`, a role, tool calls, or anything else it could not vouch for. Without
 * `chunk` the event is a plain text delta: it differs from a chunk the scanner parsed and checked earlier in the same
 * stream only by the string of its `delta.content` (given decoded as `content`), so it is a valid chunk without usage,
 * finish reason or error, and the gateway forwards `text` without parsing it.
 */
export interface ScannedChunk {
  text: string;
  chunk?: ChatCompletionChunk;
  content?: string;
  /** Never set: what tells a chunk from a {@link ScannedRun} (see {@link isScannedRun}). */
  count?: undefined;
}

/**
 * Plain text deltas (as {@link ScannedChunk} describes them; `count` of them, at least one) that came one after the
 * other in one upstream read, as one item of a batch: framed exactly as the gateway would write them (`data: <text>\n\n`
 * each), `bytes.subarray(start, end)` is their text as the upstream sent it, byte for byte, which the gateway forwards
 * without encoding it again. No object is made per delta: a consumer that needs one delta's text or content asks for it
 * by its index in the run (decoded then).
 */
export interface ScannedRun {
  readonly bytes: Uint8Array;
  /** Byte offset of the run's first event in `bytes`. */
  readonly start: number;
  /** Byte offset just past the run's last event in `bytes`. */
  readonly end: number;
  /** How many deltas the run holds (at least 1). */
  readonly count: number;
  /** The data (one line of chunk JSON) of the run's delta `i` (0 <= `i` < `count`), decoded from `bytes`. */
  textAt(i: number): string;
  /** The decoded `delta.content` of the run's delta `i` (0 <= `i` < `count`). */
  contentAt(i: number): string;
}

/** True when `item` is a run of plain text deltas ({@link ScannedRun}), false for one event ({@link ScannedChunk}). */
export function isScannedRun(item: ScannedChunk | ScannedRun): item is ScannedRun {
  return item.count !== undefined;
}

/**
 * The chunk events one network read of an upstream stream completed, in order (never empty): one item per event, or
 * per run of plain text deltas that the scanner found one after the other in the read's bytes.
 */
export type ChunkBatch = (ScannedChunk | ScannedRun)[];

/** Key of the method of a chunk stream that reads it one network read at a time (see {@link BatchedChunkStream}). */
export const CHUNK_BATCHES: unique symbol = Symbol.for('switchyard.chunkBatches');

/**
 * A chat chunk stream an adapter also offers one network read at a time, as {@link ChunkBatch}es (for the byte
 * pass-through of OpenAI-family streams). A consumer uses either `[Symbol.asyncIterator]` (chunks) or
 * `[CHUNK_BATCHES]` (batches), once, never both. Both end, throw and close the upstream alike.
 */
export interface BatchedChunkStream extends AsyncIterable<ChatCompletionChunk> {
  [CHUNK_BATCHES](): AsyncIterator<ChunkBatch>;
}

/** The batch reader of a chunk stream that offers one ({@link BatchedChunkStream}), else undefined. */
export function chunkBatchesOf(
  stream: AsyncIterable<ChatCompletionChunk>,
): (() => AsyncIterator<ChunkBatch>) | undefined {
  const batches = (stream as Partial<BatchedChunkStream>)[CHUNK_BATCHES];
  return typeof batches === 'function' ? () => batches.call(stream) : undefined;
}
