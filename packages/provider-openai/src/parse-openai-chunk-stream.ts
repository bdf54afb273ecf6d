import type { ChatCompletionChunk, ChunkBatch, ScannedChunk } from '@switchyard/core';
import { ChunkBatchScanner } from './chunk-batch-scanner.js';

/**
 * Turns an OpenAI chat stream (`text/event-stream`: `data: <chunk JSON>` events, then `data: [DONE]`) into chunks,
 * yielded one by one as they arrive. A `data: {"error":{...}}` event throws a GatewayError with its fields (each one
 * redacted of `secrets`); a
 * connection that breaks throws 502/504; bad JSON, text that is not SSE (a bare JSON error body is mapped like an error
 * event), or a stream that ends without `[DONE]` before any finish_reason, throws 502 `upstream_invalid_response`.
 * Every chunk (after `fix`, a preset's repair) is checked against core's chunk schema (`checkChatCompletionChunk`; 502
 * `upstream_invalid_response` when it is not a chunk); a chunk taken as it came keeps its event text
 * (`rememberJsonText`), so the gateway forwards the upstream's bytes; named events
 * other than `error`, and events whose `object` is not `chat.completion.chunk`, are skipped. Reasoning fields
 * (`delta.reasoning_content` of DeepSeek, vLLM...) pass through untouched, with every other unknown field. Closing the iterator early destroys the upstream body.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export async function* parseOpenAIChunkStream(
  provider: string,
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
  signal: AbortSignal,
  secrets: readonly (string | undefined)[],
  fix?: (chunk: ChatCompletionChunk) => ChatCompletionChunk,
): AsyncGenerator<ChatCompletionChunk> {
  for await (const batch of scanOpenAIChunkBatches(provider, body, signal, secrets, fix, false)) {
    // Without `passPlain`, every item is a parsed chunk.
    for (const item of batch) yield (item as ScannedChunk).chunk!;
  }
}

/**
 * {@link parseOpenAIChunkStream} one network read at a time, as core's `ChunkBatch`es (same events skipped, same
 * errors, same end). With `passPlain`, the plain text deltas that repeat the stream's last checked text delta but for
 * their content (see {@link ChunkTemplate}) are not parsed: they come as their text and decoded content only, for the
 * gateway's byte pass-through; every other event is parsed and checked as in {@link parseOpenAIChunkStream}. A plain
 * read (core's `SSEBatch` with bytes) is scanned on its bytes, undecoded: the plain deltas that follow one another in
 * it come as one item, a {@link PlainRun} of the read's bytes (no object per delta; their text and content decoded
 * only when asked for), its other events decoded one by one.
 */
export function scanOpenAIChunkBatches(
  provider: string,
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
  signal: AbortSignal,
  secrets: readonly (string | undefined)[],
  fix: ((chunk: ChatCompletionChunk) => ChatCompletionChunk) | undefined,
  passPlain: boolean,
): AsyncIterableIterator<ChunkBatch> {
  // An iterator written by hand, not an async generator: see ChunkBatchScanner.
  return new ChunkBatchScanner(provider, body, signal, secrets, fix, passPlain);
}
