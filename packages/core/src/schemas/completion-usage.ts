import { z } from 'zod';

/**
 * Token usage of one completion (CompletionUsage). Counts are in tokens;
 * `total_tokens` is always `prompt_tokens + completion_tokens` in what the gateway answers.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export const completionUsageSchema = z.looseObject({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().int().optional() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().int().optional() }).nullish(),
});

/** Token usage (tokens), OpenAI wire names. */
export type CompletionUsage = z.infer<typeof completionUsageSchema>;
