import { type BatchedChunkStream, CHUNK_BATCHES, type ChatCompletionChunk } from '@switchyard/core';
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
  const chunks = () => parseOpenAIChunkStream(provider, body, signal, secrets, fix);
  if (fix) return chunks();
  const stream: BatchedChunkStream = {
    [Symbol.asyncIterator]: () => chunks(),
    [CHUNK_BATCHES]: () => scanOpenAIChunkBatches(provider, body, signal, secrets, undefined, true),
  };
  return stream;
}
