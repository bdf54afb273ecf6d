import { type ChatCompletion, type ChatCompletionChunk, type CompletionUsage, normalizeUsage } from '@switchyard/core';
import { mergeAsyncIterables } from './merge-async-iterables.js';

function addUsage(total: CompletionUsage, usage: CompletionUsage | null | undefined): void {
  if (!usage) return;
  total.prompt_tokens += usage.prompt_tokens;
  total.completion_tokens += usage.completion_tokens;
  total.prompt_tokens_details = {
    cached_tokens:
      (total.prompt_tokens_details?.cached_tokens ?? 0) + (usage.prompt_tokens_details?.cached_tokens ?? 0),
    cache_write_tokens:
      (total.prompt_tokens_details?.cache_write_tokens ?? 0) + (usage.prompt_tokens_details?.cache_write_tokens ?? 0),
  };
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning != null)
    total.completion_tokens_details = {
      reasoning_tokens: (total.completion_tokens_details?.reasoning_tokens ?? 0) + reasoning,
    };
  normalizeUsage(total);
}

/**
 * Joins n single-choice completions (choice i at index i) into one completion: the first one's `id`, `created` and
 * `model`, every choice, and usage summed over all (tokens; `total_tokens` the sum of prompt and completion).
 */
export function mergeChoices(completions: readonly ChatCompletion[]): ChatCompletion {
  const usage: CompletionUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  for (const c of completions) addUsage(usage, c.usage);
  return { ...completions[0]!, choices: completions.flatMap((c) => c.choices), usage };
}

/**
 * Interleaves n single-choice chunk streams (their chunks already carry their choice index and one shared id) as the
 * chunks arrive, holding back their usage-only chunks (`choices: []`) and sending one usage chunk with the sums
 * (tokens) at the end. `onClose` runs when a stream fails or the consumer stops early (see {@link mergeAsyncIterables}).
 */
export async function* mergeChoiceStreams(
  streams: readonly AsyncIterable<ChatCompletionChunk>[],
  onClose?: () => void,
): AsyncGenerator<ChatCompletionChunk> {
  const usage: CompletionUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let last: ChatCompletionChunk | undefined;
  for await (const chunk of mergeAsyncIterables(streams, onClose)) {
    if (chunk.usage && chunk.choices.length === 0) {
      addUsage(usage, chunk.usage);
      last = chunk;
      continue;
    }
    yield chunk;
  }
  if (last) yield { ...last, usage };
}

/**
 * Runs `one(i, signal, id)` for the n choices at once, under a signal that aborts them all when one fails (its error
 * is thrown), and merges them: {@link mergeChoices} when `stream` is false, else {@link mergeChoiceStreams} (closing
 * the merged stream aborts the rest).
 */
export async function fanOutChoices(
  n: number,
  one: (
    choiceIndex: number,
    signal: AbortSignal,
    id: string,
  ) => Promise<ChatCompletion | AsyncIterable<ChatCompletionChunk>>,
  parent: AbortSignal,
  id: string,
  stream: boolean,
): Promise<ChatCompletion | AsyncIterable<ChatCompletionChunk>> {
  const siblings = new AbortController();
  const signal = AbortSignal.any([parent, siblings.signal]);
  let results: (ChatCompletion | AsyncIterable<ChatCompletionChunk>)[];
  try {
    results = await Promise.all(Array.from({ length: n }, (_, i) => one(i, signal, id)));
  } catch (error) {
    siblings.abort(error);
    throw error;
  }
  if (!stream) return mergeChoices(results as ChatCompletion[]);
  return mergeChoiceStreams(results as AsyncIterable<ChatCompletionChunk>[], () =>
    siblings.abort(new Error('the merged stream was closed')),
  );
}
