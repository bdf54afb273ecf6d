import { z } from 'zod';

/**
 * Token usage of one completion (CompletionUsage). Counts are in tokens;
 * `total_tokens` is always `prompt_tokens + completion_tokens` in what the gateway answers; the details split
 * `prompt_tokens` (cache reads, cache writes) and `completion_tokens` (reasoning).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export const completionUsageSchema = z.looseObject({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  /**
   * `cached_tokens`: prompt tokens read from the provider's prompt cache; `cache_write_tokens` (a Switchyard extension,
   * also used by OpenRouter): prompt tokens written to the cache by this request (Anthropic's
   * `cache_creation_input_tokens`). Both are included in `prompt_tokens`.
   */
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().int().optional(), cache_write_tokens: z.number().int().optional() }).nullish(),
  /** `reasoning_tokens`: completion tokens spent thinking, included in `completion_tokens`. */
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().int().optional() }).nullish(),
});

/** Token usage (tokens), OpenAI wire names. */
export type CompletionUsage = z.infer<typeof completionUsageSchema>;
