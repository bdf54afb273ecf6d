import type { ChatCompletionChunk } from '@switchyard/core';

/**
 * What a chunk stream assembled to: the content and reasoning of choice 0, its `reasoning_details` entries, the
 * finish reasons seen, the last usage, the ids.
 */
export interface AssembledStream {
  chunks: ChatCompletionChunk[];
  content: string;
  /** The `delta.reasoning_content` pieces of choice 0, joined. */
  reasoning: string;
  /** The `delta.reasoning_details` entries of choice 0, in order. */
  reasoningDetails: Record<string, unknown>[];
  finishReasons: string[];
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  };
  ids: Set<string>;
}

/** Reads a whole chunk stream and assembles it (test helper). */
export async function collectChunks(stream: AsyncIterable<ChatCompletionChunk>): Promise<AssembledStream> {
  const out: AssembledStream = {
    chunks: [],
    content: '',
    reasoning: '',
    reasoningDetails: [],
    finishReasons: [],
    ids: new Set(),
  };
  for await (const chunk of stream) {
    out.chunks.push(chunk);
    out.ids.add(chunk.id);
    for (const choice of chunk.choices) {
      if (choice.index === 0) {
        out.content += choice.delta?.content ?? '';
        out.reasoning += (choice.delta?.reasoning_content as string | null | undefined) ?? '';
        out.reasoningDetails.push(...((choice.delta?.reasoning_details ?? []) as Record<string, unknown>[]));
      }
      if (choice.finish_reason) out.finishReasons.push(choice.finish_reason);
    }
    if (chunk.usage) out.usage = chunk.usage;
  }
  return out;
}
