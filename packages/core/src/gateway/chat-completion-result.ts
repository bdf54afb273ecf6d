import type { PeekedStream } from '../routing/guard-stream.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import type { ChatCompletion } from '../schemas/chat-completion.js';

/** A chat answer: a whole completion, or a stream of chunks when `stream: true`. */
export type ChatCompletionResult = ChatCompletion | AsyncIterable<ChatCompletionChunk>;

/** True when a chat answer is a stream. */
export function isChunkStream(value: ChatCompletionResult): value is AsyncIterable<ChatCompletionChunk> {
  return typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

/** True when an attempt's value is a stream whose first chunk was already read. */
export function isPeekedStream(
  value: ChatCompletion | PeekedStream<ChatCompletionChunk>,
): value is PeekedStream<ChatCompletionChunk> {
  return typeof (value as PeekedStream<ChatCompletionChunk>).iterator?.next === 'function';
}
