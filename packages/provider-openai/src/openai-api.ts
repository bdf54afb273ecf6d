import { tokenCountSchema } from '@switchyard/core';
import { z } from 'zod';

// The fields this adapter reads of OpenAI's answers that core's schemas do not cover (chat, embeddings and images
// answers and chat chunks are checked with core's `chatCompletionSchema`, `embeddingResponseSchema`,
// `imagesResponseSchema`, `checkChatCompletionChunk`). Only what is read; every other field is kept as sent.

/**
 * A JSON transcription or translation (`response_format` `json`, `verbose_json` or `diarized_json`): `{text, ...}`,
 * the rest passed on as it came.
 * @see https://platform.openai.com/docs/api-reference/audio/json-object
 */
export const openaiTranscriptionJsonSchema = z.looseObject({ text: z.string() });

/**
 * `GET /models`: `{data: [{id, created (unix s)?, architecture.input_modalities?, supported_parameters?}]}`, the last
 * two from OpenRouter-style lists. A list without `data` reads as empty.
 * @see https://platform.openai.com/docs/api-reference/models/list
 * @see https://openrouter.ai/docs/api-reference/models/get-models
 */
export const openaiModelListSchema = z.looseObject({
  data: z
    .array(
      z.looseObject({
        id: z.string(),
        created: z.number().optional(),
        architecture: z.looseObject({ input_modalities: z.unknown().optional() }).nullish(),
        supported_parameters: z.unknown().optional(),
      }),
    )
    .nullish(),
});

/**
 * Responses usage (ResponseUsage, tokens): `input_tokens`, `input_tokens_details.cached_tokens`/`cache_write_tokens`,
 * `output_tokens`, `output_tokens_details.reasoning_tokens`.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export const responsesUsageSchema = z.looseObject({
  input_tokens: tokenCountSchema.optional(),
  output_tokens: tokenCountSchema.optional(),
  input_tokens_details: z
    .looseObject({ cached_tokens: tokenCountSchema.nullish(), cache_write_tokens: tokenCountSchema.nullish() })
    .nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: tokenCountSchema.nullish() }).nullish(),
});

/**
 * A Responses answer (`POST /responses` without a stream) as the native pass-through reads it: its `usage`, the rest
 * forwarded as it came.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export const responsesAnswerSchema = z.looseObject({ usage: responsesUsageSchema.nullish() });

/**
 * The data of a Responses stream's final event (`response.completed`, `response.incomplete`, `response.failed`): its
 * `response.usage`.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/response/completed
 */
export const responsesFinalEventSchema = z.looseObject({
  response: z.looseObject({ usage: responsesUsageSchema.nullish() }),
});

/**
 * A moderation answer as first read, before its dialect's own check (`ModerationDialect.readAnswer`: OpenAI's
 * `moderationResponseSchema`, Mistral's): an object with a `results` array, as both dialects answer.
 * @see https://platform.openai.com/docs/api-reference/moderations/object
 * @see https://docs.mistral.ai/api/#tag/classifiers/operation/moderations_v1_moderations_post
 */
export const moderationAnswerSchema = z.looseObject({ results: z.array(z.unknown()) });

/** Responses usage as read. */
export type ResponsesUsage = z.infer<typeof responsesUsageSchema>;
