import { z } from 'zod';
import { finishReasonSchema } from './chat-completion.js';
import { completionUsageSchema } from './completion-usage.js';
import { reasoningDetailSchema } from './reasoning-detail.js';
import { messageAnnotationSchema } from './url-citation.js';
import { webSearchCallSchema } from './web-search-call.js';

/**
 * A tool call fragment in a stream delta (ChatCompletionMessageToolCallChunk): `index` counts tool calls
 * within the choice; `id`, `type` and `function.name` come in the first fragment, `function.arguments`
 * is a piece of the JSON string to be concatenated.
 */
export const chatCompletionToolCallDeltaSchema = z.looseObject({
  index: z.number().int(),
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});

/**
 * One server-sent event of a streamed chat completion (CreateChatCompletionStreamResponse):
 * `{id, object:"chat.completion.chunk", created, model, choices[{index, delta{role?, content?, tool_calls?}, finish_reason}], usage?}`.
 * With `stream_options.include_usage` the last chunk has `choices: []` and `usage`.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export const chatCompletionChunkSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number().int(),
      delta: z.looseObject({
        role: z.enum(['assistant', 'developer', 'system', 'user', 'tool']).optional(),
        content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z.array(chatCompletionToolCallDeltaSchema).optional(),
        /** A piece of the reasoning text; reasoning arrives before the content it leads to. */
        reasoning_content: z.string().nullish(),
        /** Whole `reasoning_details` entries (each arrives complete in one delta, when its block ends). */
        reasoning_details: z.array(reasoningDetailSchema).optional(),
        /** Web searches the upstream ran (an extension; see `webSearchCallSchema`). */
        web_search_calls: z.array(webSearchCallSchema).optional(),
        /** URL citations of the content (OpenAI's `annotations`; in a delta, new whole entries, indexes in the content so far). */
        annotations: z.array(messageAnnotationSchema).nullish(),
      }),
      finish_reason: finishReasonSchema.nullable().optional(),
      logprobs: z.unknown().nullish(),
    }),
  ),
  usage: completionUsageSchema.nullish(),
  system_fingerprint: z.string().nullish(),
});

/** One streamed chat completion chunk. */
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;
/** A tool call fragment of a stream delta. */
export type ChatCompletionToolCallDelta = z.infer<typeof chatCompletionToolCallDeltaSchema>;
