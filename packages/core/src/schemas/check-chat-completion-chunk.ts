import type { z } from 'zod';
import { type ChatCompletionChunk, chatCompletionChunkSchema } from './chat-completion-chunk.js';
import { isPlainUsage } from './check-plain-answers.js';

const ROLES = new Set(['assistant', 'developer', 'system', 'user', 'tool']);
const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

const nullishString = (value: unknown) => value === undefined || value === null || typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * True when `value` certainly matches {@link chatCompletionChunkSchema}, checked by hand for the shapes that make up
 * nearly every stream (text deltas, a role, a finish reason, usage): a streamed answer has one chunk per token, and
 * zod's check of each costs more than the rest of the gateway's work on it. False means "not sure": chunks with tool
 * calls or reasoning details, and anything odd, are left to zod (see {@link checkChatCompletionChunk}).
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function isPlainChatCompletionChunk(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (typeof value.id !== 'string' || value.object !== 'chat.completion.chunk' || typeof value.model !== 'string')
    return false;
  if (typeof value.created !== 'number' || !Number.isFinite(value.created)) return false;
  if (
    (value.usage !== undefined && value.usage !== null && !isPlainUsage(value.usage)) ||
    !nullishString(value.system_fingerprint)
  )
    return false;
  const choices = value.choices;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices) {
    if (!isObject(choice) || !Number.isSafeInteger(choice.index)) return false;
    const finish = choice.finish_reason;
    if (finish !== undefined && finish !== null && !FINISH_REASONS.has(finish as string)) return false;
    const delta = choice.delta;
    if (!isObject(delta)) return false;
    if (delta.tool_calls !== undefined || delta.reasoning_details !== undefined || delta.web_search_calls !== undefined)
      return false;
    if (delta.role !== undefined && !ROLES.has(delta.role as string)) return false;
    if (!nullishString(delta.content) || !nullishString(delta.refusal) || !nullishString(delta.reasoning_content))
      return false;
  }
  return true;
}

/**
 * Checks one parsed stream event against {@link chatCompletionChunkSchema} (unknown fields kept): the hand-written
 * check of {@link isPlainChatCompletionChunk} first, zod when it is not sure. Returns the chunk (`value` itself on the
 * fast path, zod's copy otherwise), or the zod error when it is not a chunk.
 */
export function checkChatCompletionChunk(
  value: unknown,
): { success: true; data: ChatCompletionChunk } | { success: false; error: z.ZodError } {
  if (isPlainChatCompletionChunk(value)) return { success: true, data: value as ChatCompletionChunk };
  const checked = chatCompletionChunkSchema.safeParse(value);
  return checked.success
    ? { success: true, data: checked.data as ChatCompletionChunk }
    : { success: false, error: checked.error };
}
