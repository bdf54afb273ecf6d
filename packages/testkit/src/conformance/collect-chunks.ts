import type { ChatCompletionChunk } from '@switchyard/core';

/** What a chunk stream assembled to: the content of choice 0, the finish reasons seen, the last usage, the ids. */
export interface AssembledStream {
  chunks: ChatCompletionChunk[];
  content: string;
  finishReasons: string[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  ids: Set<string>;
}

/** Reads a whole chunk stream and assembles it (test helper). */
export async function collectChunks(stream: AsyncIterable<ChatCompletionChunk>): Promise<AssembledStream> {
  const out: AssembledStream = { chunks: [], content: '', finishReasons: [], ids: new Set() };
  for await (const chunk of stream) {
    out.chunks.push(chunk);
    out.ids.add(chunk.id);
    for (const choice of chunk.choices) {
      if (choice.index === 0) out.content += choice.delta?.content ?? '';
      if (choice.finish_reason) out.finishReasons.push(choice.finish_reason);
    }
    if (chunk.usage) out.usage = chunk.usage;
  }
  return out;
}
