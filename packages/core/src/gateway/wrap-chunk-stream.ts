import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import type { CompletionUsage } from '../schemas/completion-usage.js';
import { type PeekedStream, idleGuard } from '../routing/guard-stream.js';
import type { PlanOutcome } from '../routing/execute-plan.js';
import { normalizeUsageOf } from './normalize-usage.js';
import { presentModel } from './present-model.js';

/** What a finished stream reported, for accounting and traces. */
export interface StreamSummary {
  /** The last usage seen (tokens), if any. */
  usage?: CompletionUsage;
  /** `finish_reason` per choice index, as the stream reported them (for traces). */
  finishReasons?: string[];
  /**
   * Content text of every choice, concatenated (only when collecting was asked for), to count tokens without usage; the
   * byte pass-through (`passThroughChatStream`) collects it only while no usage has been seen (then it is dropped).
   */
  text?: string;
  /** True when the stream reached its end; false while running, or when it failed or was closed early. */
  completed?: boolean;
  /** What the stream threw, when it failed. */
  error?: unknown;
  /** Images the stream delivered (`image_edit.completed` events of a streamed image edit). */
  images?: number;
}

/**
 * Passes an adapter's chunks through, making `usage.total_tokens` the sum of prompt and completion tokens on
 * chunks that carry usage, and records the last usage and the finish reasons in `summary` (for accounting). When
 * `stripUsage` is true (the gateway asked the upstream for usage that the client did not ask for), usage is removed
 * from the chunks and usage-only chunks (no choices) are dropped. With `collectText`, content deltas are appended to
 * `summary.text`. Closing the wrapper (early `return()`) closes the adapter's stream, which aborts the upstream request.
 * `onEnd` is called once the stream has ended, however it ended (with what it threw, if it threw), after `summary` is
 * complete, and awaited before the stream ends: a caller that settles the call there needs no generator of its own
 * around this one. With `model` (the id the client asked for), every chunk names it (see `presentModel`).
 */
export async function* wrapChunkStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  summary: StreamSummary = {},
  stripUsage = false,
  collectText = false,
  onEnd?: (failure?: unknown) => void | Promise<void>,
  model?: string,
): AsyncGenerator<ChatCompletionChunk> {
  try {
    for await (const chunk of chunks) {
      const out = noteChunk(chunk, summary, stripUsage, collectText, model);
      if (out) yield out;
    }
    summary.completed = true;
  } catch (error) {
    summary.error = error;
    throw error;
  } finally {
    await onEnd?.(summary.error);
  }
}

/**
 * {@link wrapChunkStream} and `guardStream` in one generator, for the chat path: yields a peeked stream under the
 * attempt's idle timer (see `idleGuard`), noting usage and finish reasons as `wrapChunkStream` does. One generator
 * step per chunk instead of two. Closing it early closes the adapter's stream; the attempt is released at the end.
 */
export function wrapGuardedChunkStream(
  peeked: PeekedStream<ChatCompletionChunk>,
  outcome: PlanOutcome<unknown>,
  summary: StreamSummary = {},
  stripUsage = false,
  collectText = false,
  onEnd?: (failure?: unknown) => void | Promise<void>,
  model?: string,
): AsyncGenerator<ChatCompletionChunk> {
  return guardedItems(
    peeked,
    outcome,
    summary,
    (chunk) => noteChunk(chunk, summary, stripUsage, collectText, model),
    onEnd,
  );
}

/**
 * Yields the items of a peeked stream under the attempt's idle timer (see `idleGuard`: a stall of `outcome.idleMs`
 * between two items aborts the attempt, 504), each as `map` gives it (an item mapped to undefined is not yielded).
 * However it ends, the upstream is closed, `summary` is settled (`completed` when it reached its end, `error` when it
 * threw) and then `onEnd` is called once (with what it threw, if it threw) and awaited. The one settlement loop of
 * {@link wrapGuardedChunkStream} (chunks) and the byte pass-through (batches), one generator step per item.
 */
export async function* guardedItems<T, U>(
  peeked: PeekedStream<T>,
  outcome: PlanOutcome<unknown>,
  summary: StreamSummary,
  map: (item: T) => U | undefined,
  onEnd?: (failure?: unknown) => void | Promise<void>,
): AsyncGenerator<U> {
  const guard = idleGuard(outcome);
  try {
    try {
      let next = peeked.first;
      while (!next.done) {
        const out = map(next.value);
        if (out !== undefined) yield out;
        next = await guard.next(peeked.iterator);
      }
      summary.completed = true;
    } finally {
      await guard.close(peeked.iterator);
    }
  } catch (error) {
    summary.error = error;
    throw error;
  } finally {
    await onEnd?.(summary.error);
  }
}

/**
 * Notes one chunk in `summary` (finish reasons, usage, content text when `collectText`); returns what to send (usage
 * stripped when `stripUsage`; a usage-only chunk then dropped: undefined), naming `model` when given (the id the client
 * asked for, see `presentModel`).
 */
export function noteChunk(
  chunk: ChatCompletionChunk,
  summary: StreamSummary,
  stripUsage: boolean,
  collectText: boolean,
  model?: string,
): ChatCompletionChunk | undefined {
  if (model !== undefined && chunk.model !== model) presentModel(chunk, model);
  for (const choice of chunk.choices) {
    if (typeof choice.finish_reason === 'string')
      (summary.finishReasons ??= [])[choice.index ?? 0] = choice.finish_reason;
    if (collectText && choice.delta?.content) summary.text = (summary.text ?? '') + choice.delta.content;
  }
  if (chunk.usage) {
    summary.usage = normalizeUsageOf(chunk);
    if (stripUsage) {
      if (chunk.choices.length === 0) return undefined;
      const { usage: _usage, ...rest } = chunk;
      return rest as ChatCompletionChunk;
    }
  }
  return chunk;
}
