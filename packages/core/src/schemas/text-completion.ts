import { z } from 'zod';
import { completionUsageSchema } from './completion-usage.js';

/**
 * One choice of a legacy completion: `text`, `index`, `logprobs` (`{tokens, token_logprobs, top_logprobs,
 * text_offset}` or null) and `finish_reason` (`stop`, `length`, `content_filter`; null in a stream's chunks until the
 * choice ends).
 */
export const textCompletionChoiceSchema = z.looseObject({
  text: z.string(),
  index: z.number().int().min(0),
  logprobs: z
    .looseObject({
      tokens: z.array(z.string()).optional(),
      token_logprobs: z.array(z.number().nullable()).optional(),
      top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).nullish(),
      text_offset: z.array(z.number()).optional(),
    })
    .nullish(),
  finish_reason: z.string().nullish(),
});

/**
 * A legacy completion (CreateCompletionResponse, `object: "text_completion"`): `{id, object, created (unix s), model,
 * system_fingerprint?, choices[], usage?}`. A stream's chunks have the same shape (unlike chat's), with one choice's
 * text delta each; with `stream_options.include_usage` the last chunk has no choices and carries `usage` (tokens).
 * @see https://platform.openai.com/docs/api-reference/completions/object
 */
export const textCompletionSchema = z.looseObject({
  id: z.string(),
  object: z.literal('text_completion'),
  created: z.number(),
  model: z.string(),
  system_fingerprint: z.string().nullish(),
  choices: z.array(textCompletionChoiceSchema),
  usage: completionUsageSchema.nullish(),
});

/** A legacy completion, or one chunk of its stream. */
export type TextCompletion = z.infer<typeof textCompletionSchema>;

/** A legacy completion answer: a whole completion, or a stream of `text_completion` chunks when `stream: true`. */
export type TextCompletionResult = TextCompletion | AsyncIterable<TextCompletion>;
