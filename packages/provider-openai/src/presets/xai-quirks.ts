import type { ChatCompletion, ChatCompletionChunk, CompletionUsage } from '@switchyard/core';
import type { ChatQuirks } from './openai-compatible-preset.js';

/**
 * xAI counts reasoning tokens in `total_tokens` and `completion_tokens_details.reasoning_tokens` but not in
 * `completion_tokens` (recorded: 12 prompt + 1 completion, 290 reasoning, total 303). OpenAI counts them in
 * `completion_tokens`, and they are billed as output, so they are added there; a usage that already adds up is
 * returned unchanged.
 * @see https://docs.x.ai/docs/guides/reasoning
 */
export function fixXaiUsage<T extends CompletionUsage | null | undefined>(usage: T): T {
  if (!usage) return usage;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  if (reasoning > 0 && usage.prompt_tokens + usage.completion_tokens + reasoning === usage.total_tokens) {
    return { ...usage, completion_tokens: usage.completion_tokens + reasoning };
  }
  return usage;
}

/** xAI's quirks: reasoning tokens moved into `completion_tokens` ({@link fixXaiUsage}) in completions and stream chunks. */
export const xaiQuirks: ChatQuirks = {
  fixCompletion: (completion: ChatCompletion) =>
    completion.usage ? { ...completion, usage: fixXaiUsage(completion.usage) } : completion,
  fixChunk: (chunk: ChatCompletionChunk) => (chunk.usage ? { ...chunk, usage: fixXaiUsage(chunk.usage) } : chunk),
};
