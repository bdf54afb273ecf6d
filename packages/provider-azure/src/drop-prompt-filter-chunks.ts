import type { ChatCompletionChunk } from '@switchyard/core';

/**
 * Removes Azure's prompt-filter preamble from a chat stream: Azure starts every stream with a chunk that has no
 * choices, an empty `id`, `model` and `object`, and only `prompt_filter_results`. It is not an OpenAI chunk (OpenAI
 * clients would see two ids and an empty object type), so it is dropped; every other chunk, the final usage chunk
 * (`choices: []` with `usage`) and the `content_filter_results` Azure adds to choices included, passes through.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter#streaming
 */
export async function* dropPromptFilterChunks(
  chunks: AsyncIterable<ChatCompletionChunk>,
): AsyncGenerator<ChatCompletionChunk> {
  for await (const chunk of chunks) {
    if ((chunk.choices?.length ?? 0) === 0 && !chunk.usage) continue;
    yield chunk;
  }
}
