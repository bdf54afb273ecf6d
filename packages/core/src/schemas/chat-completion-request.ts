import { z } from 'zod';
import { modelIdSchema } from './model-id.js';
import { chatCompletionMessageSchema } from './chat-completion-message.js';
import { chatCompletionToolChoiceSchema, chatCompletionToolSchema } from './chat-completion-tool.js';
import { reasoningEffortSchema } from './reasoning-effort.js';

/** Most messages one chat request may carry; more is refused with 400 naming `messages` before anything else is checked. */
export const MAX_CHAT_MESSAGES = 10_000;

/**
 * `POST /v1/chat/completions` body (CreateChatCompletionRequest). Ranges follow OpenAI: temperature 0..2,
 * top_p 0..1, penalties -2..2, n 1..128, 1 to {@link MAX_CHAT_MESSAGES} messages, at most 4 stop sequences, top_logprobs 0..20. Token limits are in tokens.
 * Unknown fields pass through (so new OpenAI parameters still reach OpenAI-compatible upstreams).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export const chatCompletionRequestSchema = z.looseObject({
  model: modelIdSchema,
  messages: z.array(chatCompletionMessageSchema).min(1).max(MAX_CHAT_MESSAGES),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  stop: z.union([z.string(), z.array(z.string()).min(1).max(4)]).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  /** The most output tokens, reasoning included; preferred over `max_tokens` (both accepted everywhere). */
  max_completion_tokens: z.number().int().min(1).nullish(),
  reasoning_effort: reasoningEffortSchema.nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  logit_bias: z.record(z.string(), z.number()).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  seed: z.number().int().nullish(),
  user: z.string().optional(),
  tools: z.array(chatCompletionToolSchema).optional(),
  tool_choice: chatCompletionToolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: z
    .union([
      z.looseObject({ type: z.literal('text') }),
      z.looseObject({ type: z.literal('json_object') }),
      z.looseObject({
        type: z.literal('json_schema'),
        json_schema: z.looseObject({ name: z.string(), schema: z.record(z.string(), z.unknown()).optional() }),
      }),
    ])
    .optional(),
});

/** A parsed chat completion request, wire (snake_case) names. */
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;
