import { z } from 'zod';

/** A token count: a non-negative safe integer (an upstream's negative or fractional count is refused, never metered). */
export const tokenCountSchema = z.number().int().min(0);

/**
 * Token usage of one completion (CompletionUsage). Counts are in tokens;
 * `total_tokens` is always `prompt_tokens + completion_tokens` in what the gateway answers; the details split
 * `prompt_tokens` (cache reads, cache writes) and `completion_tokens` (reasoning).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export const completionUsageSchema = z.looseObject({
  prompt_tokens: tokenCountSchema,
  completion_tokens: tokenCountSchema,
  total_tokens: tokenCountSchema,
  /**
   * `cached_tokens`: prompt tokens read from the provider's prompt cache; `cache_write_tokens` (a Switchyard extension,
   * also used by OpenRouter): prompt tokens written to the cache by this request (Anthropic's
   * `cache_creation_input_tokens`). Both are included in `prompt_tokens`.
   */
  prompt_tokens_details: z
    .looseObject({ cached_tokens: tokenCountSchema.optional(), cache_write_tokens: tokenCountSchema.optional() })
    .nullish(),
  /** `reasoning_tokens`: completion tokens spent thinking, included in `completion_tokens`. */
  completion_tokens_details: z.looseObject({ reasoning_tokens: tokenCountSchema.optional() }).nullish(),
});

/** Token usage (tokens), OpenAI wire names. */
export type CompletionUsage = z.infer<typeof completionUsageSchema>;
