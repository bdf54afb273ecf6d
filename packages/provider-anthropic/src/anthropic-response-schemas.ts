import { tokenCountSchema } from '@switchyard/core';
import { z } from 'zod';
import { anthropicErrorSchema } from './anthropic-error-schema.js';

/**
 * Token usage of a message, in tokens. `input_tokens` excludes the prompt tokens read from or written to the cache
 * (`cache_read_input_tokens`, `cache_creation_input_tokens`). In a stream, `message_start` carries the input counts
 * and `message_delta` the cumulative output count (and sometimes updated input counts). Counts may be null; a count
 * that is not a non-negative safe integer is refused (502 `upstream_invalid_response`), never metered.
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 */
export const anthropicUsageSchema = z.looseObject({
  input_tokens: tokenCountSchema.nullish(),
  output_tokens: tokenCountSchema.nullish(),
  cache_creation_input_tokens: tokenCountSchema.nullish(),
  cache_read_input_tokens: tokenCountSchema.nullish(),
  /** `thinking_tokens`: output tokens spent thinking (reported by newer models), included in `output_tokens`. */
  output_tokens_details: z.looseObject({ thinking_tokens: tokenCountSchema.nullish() }).nullish(),
});

/**
 * A content block of an answer: `text` (`text`), `tool_use` (`id`, `name`, `input` object) or another type this
 * adapter passes over (thinking, redacted_thinking, server_tool_use, web search results...). New types may appear.
 * @see https://docs.anthropic.com/en/api/messages#response-content
 */
export const anthropicResponseBlockSchema = z
  .looseObject({
    type: z.string(),
    text: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    input: z.unknown().optional(),
    /** A text block's citations (web search results, documents), read by `webSearchCitations`. */
    citations: z.array(z.unknown()).nullish(),
  })
  .refine((block) => block.type !== 'text' || typeof block.text === 'string', 'a text block has no text')
  .refine(
    (block) => block.type !== 'tool_use' || (typeof block.id === 'string' && typeof block.name === 'string'),
    'a tool_use block has no id or name',
  );

/**
 * The `POST /v1/messages` answer: `{id, type:"message", role:"assistant", model, content[], stop_reason, usage}`
 * (also the `message` of a stream's `message_start`, where `content` is empty and `stop_reason` null).
 * @see https://docs.anthropic.com/en/api/messages#response
 */
export const anthropicMessageSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  content: z.array(anthropicResponseBlockSchema),
  stop_reason: z.string().nullish(),
  usage: anthropicUsageSchema.nullish(),
});

/**
 * What the Messages pass-through reads of an answer (`POST /v1/messages` without a stream), of a `message_start` event
 * (`message.usage`) and of a `message_delta` event (`usage`): the usage to meter; the rest is forwarded as it came.
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 */
export const anthropicUsageCarrierSchema = z.looseObject({
  usage: anthropicUsageSchema.nullish(),
  message: z.looseObject({ usage: anthropicUsageSchema.nullish() }).optional(),
});

/**
 * `GET /v1/models` (one page): `data[]` of `{id, created_at (RFC 3339)}`, `has_more`, `last_id`.
 * @see https://docs.anthropic.com/en/api/models-list
 */
export const anthropicModelPageSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), created_at: z.string().optional() })),
  has_more: z.boolean().optional(),
  last_id: z.string().nullish(),
});

/**
 * The stream events this adapter reads, by `type`. Others (new types) are ignored, as Anthropic's versioning policy
 * asks.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
export const anthropicStreamEventSchemas = {
  message_start: z.looseObject({ type: z.literal('message_start'), message: anthropicMessageSchema }),
  content_block_start: z.looseObject({
    type: z.literal('content_block_start'),
    index: z.number().int(),
    content_block: anthropicResponseBlockSchema,
  }),
  content_block_delta: z.looseObject({
    type: z.literal('content_block_delta'),
    index: z.number().int(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().optional(),
      partial_json: z.string().optional(),
      thinking: z.string().optional(),
      signature: z.string().optional(),
      /** One citation of a `citations_delta`. */
      citation: z.unknown().optional(),
    }),
  }),
  content_block_stop: z.looseObject({ type: z.literal('content_block_stop'), index: z.number().int() }),
  message_delta: z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullish() }),
    usage: anthropicUsageSchema.nullish(),
  }),
  message_stop: z.looseObject({ type: z.literal('message_stop') }),
  ping: z.looseObject({ type: z.literal('ping') }),
  error: z.looseObject({ type: z.literal('error'), error: anthropicErrorSchema }),
} as const;

/** Token usage as Anthropic reports it. */
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;
/** A content block of an answer. */
export type AnthropicResponseBlock = z.infer<typeof anthropicResponseBlockSchema>;
/** A Messages API answer. */
export type AnthropicMessagesResponse = z.infer<typeof anthropicMessageSchema>;
/** An Anthropic error object (see `anthropicErrorSchema`). */
export type { AnthropicError } from './anthropic-error-schema.js';
/** A stream event this adapter reads. */
export type AnthropicStreamEvent = {
  [K in keyof typeof anthropicStreamEventSchemas]: z.infer<(typeof anthropicStreamEventSchemas)[K]>;
}[keyof typeof anthropicStreamEventSchemas];
