import { z } from 'zod';
import { modelIdSchema } from './model-id.js';

/** Most prompts one `POST /v1/completions` request may carry (an array of prompts), as for embeddings' inputs. */
export const MAX_COMPLETION_PROMPTS = 2048;

/**
 * `prompt` of a legacy completion: a string, an array of strings, an array of token ids, or an array of token-id arrays
 * (each array 1..{@link MAX_COMPLETION_PROMPTS} entries; token ids are integers >= 0 of the upstream model's tokenizer).
 */
export const completionPromptSchema = z.union([
  z.string(),
  z.array(z.string()).min(1).max(MAX_COMPLETION_PROMPTS),
  z.array(z.number().int().min(0)).min(1),
  z
    .array(z.array(z.number().int().min(0)).min(1))
    .min(1)
    .max(MAX_COMPLETION_PROMPTS),
]);

/**
 * `POST /v1/completions` body (CreateCompletionRequest, OpenAI's legacy text completions): `model`, `prompt` (see
 * {@link completionPromptSchema}), `suffix`, `echo`, `logprobs` 0..5, `best_of` 0..20, `n` 1..128, `max_tokens` >= 0
 * (tokens; OpenAI's default is 16), `temperature` 0..2, `top_p` 0..1, penalties -2..2, `stop` (a string or up to 4),
 * `seed`, `logit_bias`, `stream`, `stream_options.include_usage`, `user`. Unknown fields pass through (to upstreams
 * that serve the endpoint, e.g. vLLM's sampling extensions).
 * @see https://platform.openai.com/docs/api-reference/completions/create
 */
export const textCompletionRequestSchema = z.looseObject({
  model: modelIdSchema,
  prompt: completionPromptSchema,
  suffix: z.string().nullish(),
  echo: z.boolean().nullish(),
  logprobs: z.number().int().min(0).max(5).nullish(),
  best_of: z.number().int().min(0).max(20).nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  max_tokens: z.number().int().min(0).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  stop: z.union([z.string(), z.array(z.string()).min(1).max(4)]).nullish(),
  seed: z.number().int().nullish(),
  logit_bias: z.record(z.string(), z.number()).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  user: z.string().optional(),
});

/** A parsed legacy completion request. */
export type TextCompletionRequest = z.infer<typeof textCompletionRequestSchema>;
