import { z } from 'zod';
import { chatCompletionMessageToolCallSchema } from './chat-completion-tool.js';
import { completionUsageSchema } from './completion-usage.js';
import { reasoningDetailSchema } from './reasoning-detail.js';
import { messageAnnotationSchema } from './url-citation.js';
import { webSearchCallSchema } from './web-search-call.js';

/**
 * Why a choice ended: `stop` (natural end or stop sequence), `length` (token limit), `tool_calls`,
 * `content_filter`, or the legacy `function_call`.
 */
export const finishReasonSchema = z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

/**
 * A non-streamed chat completion (CreateChatCompletionResponse): `{id, object:"chat.completion", created (unix s),
 * model, choices[{index, message{role:"assistant", content, refusal?, tool_calls?, reasoning_content?, reasoning_details?}, finish_reason,
 * logprobs}], usage}`.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export const chatCompletionSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number().int(),
      message: z.looseObject({
        role: z.literal('assistant'),
        // OpenAI-compatible servers omit `content` or send `tool_calls: null`: both mean none.
        content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z.array(chatCompletionMessageToolCallSchema).nullish(),
        /** The model's reasoning text, never mixed into `content` (DeepSeek's convention, also vLLM's). */
        reasoning_content: z.string().nullish(),
        /** Reasoning entries (signatures, redacted thinking) to send back on the next turn; see `reasoningDetailSchema`. */
        reasoning_details: z.array(reasoningDetailSchema).optional(),
        /** Web searches the upstream ran (an extension; see `webSearchCallSchema`). */
        web_search_calls: z.array(webSearchCallSchema).optional(),
        /** URL citations of the content (OpenAI's `annotations`; in a delta, new whole entries, indexes in the content so far). */
        annotations: z.array(messageAnnotationSchema).nullish(),
      }),
      finish_reason: finishReasonSchema.nullable(),
      logprobs: z.unknown().nullish(),
    }),
  ),
  usage: completionUsageSchema.optional(),
  system_fingerprint: z.string().nullish(),
});

/** The OpenAI `finish_reason` vocabulary. */
export type FinishReason = z.infer<typeof finishReasonSchema>;
/** A non-streamed chat completion. */
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
/** One choice of a chat completion. */
export type ChatCompletionChoice = ChatCompletion['choices'][number];
