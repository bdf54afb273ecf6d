import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import { normalizeUsage } from './normalize-usage.js';

/**
 * Passes an adapter's chunks through, making `usage.total_tokens` the sum of prompt and completion tokens on
 * chunks that carry usage. Closing the wrapper (early `return()`) closes the adapter's stream, which aborts
 * the upstream request.
 */
export async function* wrapChunkStream(chunks: AsyncIterable<ChatCompletionChunk>): AsyncGenerator<ChatCompletionChunk> {
  for await (const chunk of chunks) {
    if (chunk.usage) normalizeUsage(chunk.usage);
    yield chunk;
  }
}
