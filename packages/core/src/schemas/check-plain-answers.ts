/**
 * Hand-written checks of the answers that make up nearly all of an OpenAI-compatible upstream's traffic, each true only
 * when the value certainly matches its zod schema (`chatCompletionSchema`, `embeddingResponseSchema`,
 * `completionUsageSchema`): zod checks every element of a 16 x 1536 embeddings answer one by one and costs more
 * than the rest of the gateway's work on it. False means "not sure": the caller asks zod, which names what is wrong.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 * @see https://platform.openai.com/docs/api-reference/embeddings/object
 */

const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nullishString = (value: unknown) => value === undefined || value === null || typeof value === 'string';
/** A token count: a non-negative safe integer. */
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const optionalCount = (value: unknown) => value === undefined || isCount(value);

/** True when `value` certainly matches `completionUsageSchema` (token counts are non-negative safe integers). */
export function isPlainUsage(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (!isCount(value.prompt_tokens) || !isCount(value.completion_tokens) || !isCount(value.total_tokens)) return false;
  const prompt = value.prompt_tokens_details;
  if (
    prompt !== undefined &&
    prompt !== null &&
    (!isObject(prompt) || !optionalCount(prompt.cached_tokens) || !optionalCount(prompt.cache_write_tokens))
  )
    return false;
  const completion = value.completion_tokens_details;
  if (
    completion !== undefined &&
    completion !== null &&
    (!isObject(completion) || !optionalCount(completion.reasoning_tokens))
  )
    return false;
  return true;
}

/**
 * True when `value` certainly matches `chatCompletionSchema`: text answers (content, refusal, reasoning text) with a
 * known finish reason and plain usage. Answers with tool calls or reasoning details are left to zod.
 */
export function isPlainChatCompletion(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (typeof value.id !== 'string' || value.object !== 'chat.completion' || typeof value.model !== 'string')
    return false;
  if (typeof value.created !== 'number' || !Number.isFinite(value.created) || !nullishString(value.system_fingerprint))
    return false;
  if (value.usage !== undefined && !isPlainUsage(value.usage)) return false;
  if (!Array.isArray(value.choices)) return false;
  for (const choice of value.choices) {
    if (!isObject(choice) || !Number.isSafeInteger(choice.index)) return false;
    if (choice.finish_reason !== null && !FINISH_REASONS.has(choice.finish_reason as string)) return false;
    const message = choice.message;
    if (!isObject(message) || message.role !== 'assistant') return false;
    if (
      (message.tool_calls !== undefined && message.tool_calls !== null) ||
      message.reasoning_details !== undefined ||
      message.web_search_calls !== undefined
    )
      return false;
    if (!nullishString(message.content) || !nullishString(message.refusal) || !nullishString(message.reasoning_content))
      return false;
  }
  return true;
}

/** True when `value` certainly matches `embeddingResponseSchema` (vectors of finite numbers, or base64 strings). */
export function isPlainEmbeddingResponse(value: unknown): boolean {
  if (!isObject(value) || value.object !== 'list' || typeof value.model !== 'string') return false;
  const usage = value.usage;
  if (!isObject(usage) || !isCount(usage.prompt_tokens) || !isCount(usage.total_tokens)) return false;
  if (!Array.isArray(value.data)) return false;
  for (const item of value.data) {
    if (!isObject(item) || item.object !== 'embedding' || !Number.isSafeInteger(item.index)) return false;
    const embedding = item.embedding;
    if (typeof embedding === 'string') continue;
    if (!Array.isArray(embedding)) return false;
    for (let i = 0; i < embedding.length; i++) {
      const x = embedding[i];
      if (typeof x !== 'number' || !Number.isFinite(x)) return false;
    }
  }
  return true;
}
