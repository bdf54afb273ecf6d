import { type BatchedChunkStream, CHUNK_BATCHES, type ChatCompletionChunk, type ChunkBatch } from '@switchyard/core';
import { parseOpenAIChunkStream, scanOpenAIChunkBatches } from './parse-openai-chunk-stream.js';

/**
 * An OpenAI chat stream as the adapter returns it: iterated, its chunks ({@link parseOpenAIChunkStream}); without
 * `fix` (a host whose chunks need no repair) it is also a core `BatchedChunkStream`, read one network read at a time
 * with the plain text deltas left unparsed ({@link scanOpenAIChunkBatches}), for the gateway's byte pass-through.
 * Read it one way, once. Errors and the end of the stream are the same both ways.
 */
export function openAIChunkStream(
  provider: string,
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
  signal: AbortSignal,
  secrets: readonly (string | undefined)[],
  fix?: (chunk: ChatCompletionChunk) => ChatCompletionChunk,
): AsyncIterable<ChatCompletionChunk> {
  if (fix) return parseOpenAIChunkStream(provider, body, signal, secrets, fix);
  return new OpenAIChunkStream(provider, body, signal, secrets);
}

/** {@link openAIChunkStream} without chunk fixes: one object, no closures per stream. */
class OpenAIChunkStream implements BatchedChunkStream {
  constructor(
    private readonly provider: string,
    private readonly body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
    private readonly signal: AbortSignal,
    private readonly secrets: readonly (string | undefined)[],
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<ChatCompletionChunk> {
    return parseOpenAIChunkStream(this.provider, this.body, this.signal, this.secrets);
  }

  [CHUNK_BATCHES](): AsyncIterator<ChunkBatch> {
    return scanOpenAIChunkBatches(this.provider, this.body, this.signal, this.secrets, undefined, true);
  }
}
