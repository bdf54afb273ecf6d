import { tokenCountSchema } from '@switchyard/core';
import { z } from 'zod';

// The fields this adapter reads of Cohere's v2 answers and stream events, as zod schemas: only what is read, every
// other field kept as sent (`looseObject`). Rerank answers are checked with core's `rerankResponseSchema`.

const countsSchema = z.looseObject({
  input_tokens: tokenCountSchema.optional(),
  output_tokens: tokenCountSchema.optional(),
});

/**
 * `usage` (tokens): `billed_units` (what Cohere bills) and `tokens` (what the model saw), each `{input_tokens,
 * output_tokens}`; `cached_tokens`.
 * @see https://docs.cohere.com/reference/chat#response.body.usage
 */
export const cohereUsageSchema = z.looseObject({
  billed_units: countsSchema.optional(),
  tokens: countsSchema.optional(),
  cached_tokens: tokenCountSchema.optional(),
});

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

/**
 * The `POST /v2/chat` answer: `id`, `finish_reason`, `message` (`content[]` of `{type, text}`, `tool_plan`,
 * `tool_calls[]` of `{id, function: {name, arguments}}`), `usage`.
 * @see https://docs.cohere.com/reference/chat
 */
export const cohereChatResponseSchema = z.looseObject({
  id: z.string(),
  finish_reason: z.string().optional(),
  message: z.looseObject({
    role: z.literal('assistant').optional(),
    content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).optional(),
    tool_plan: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  usage: cohereUsageSchema.optional(),
});

/** Any event of a `/v2/chat` stream: its `type` (events of types this adapter does not read are skipped). */
export const cohereStreamEventSchema = z.looseObject({ type: z.string() });

const toolCallDeltaSchema = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});

/**
 * The stream events this adapter reads, by `type`: `message-start` (`id`), `content-delta`
 * (`delta.message.content.text`), `tool-call-start` (`index`, `delta.message.tool_calls` with `id` and
 * `function.name`), `tool-call-delta` (`delta.message.tool_calls.function.arguments`), `message-end`
 * (`delta.finish_reason`, `delta.usage`).
 * @see https://docs.cohere.com/reference/chat-stream
 */
export const cohereStreamEventSchemas = {
  'message-start': z.looseObject({ type: z.literal('message-start'), id: z.string().optional() }),
  'content-delta': z.looseObject({
    type: z.literal('content-delta'),
    delta: z.looseObject({ message: z.looseObject({ content: z.looseObject({ text: z.string() }) }) }),
  }),
  'tool-call-start': z.looseObject({
    type: z.literal('tool-call-start'),
    index: z.number().int().min(0).optional(),
    delta: z.looseObject({
      message: z.looseObject({
        tool_calls: toolCallDeltaSchema.extend({
          id: z.string(),
          function: z.looseObject({ name: z.string(), arguments: z.string().optional() }),
        }),
      }),
    }),
  }),
  'tool-call-delta': z.looseObject({
    type: z.literal('tool-call-delta'),
    index: z.number().int().min(0).optional(),
    delta: z.looseObject({ message: z.looseObject({ tool_calls: toolCallDeltaSchema }) }),
  }),
  'message-end': z.looseObject({
    type: z.literal('message-end'),
    delta: z.looseObject({ finish_reason: z.string().optional(), usage: cohereUsageSchema.optional() }).optional(),
  }),
} as const;

/** {@link cohereStreamEventSchemas} as one schema, told apart by `type`. */
export const cohereKnownStreamEventSchema = z.discriminatedUnion('type', [
  cohereStreamEventSchemas['message-start'],
  cohereStreamEventSchemas['content-delta'],
  cohereStreamEventSchemas['tool-call-start'],
  cohereStreamEventSchemas['tool-call-delta'],
  cohereStreamEventSchemas['message-end'],
]);

/**
 * The `POST /v2/embed` answer with `embedding_types: ["float"]`: `embeddings.float` (one vector per text),
 * `meta.billed_units.input_tokens` (tokens).
 * @see https://docs.cohere.com/reference/embed
 */
export const cohereEmbedResponseSchema = z.looseObject({
  id: z.string().optional(),
  embeddings: z.looseObject({ float: z.array(z.array(z.number())).optional() }),
  meta: z
    .looseObject({ billed_units: z.looseObject({ input_tokens: tokenCountSchema.optional() }).optional() })
    .optional(),
});

/**
 * `GET /v1/models`: `{models: [{name}]}`.
 * @see https://docs.cohere.com/reference/list-models
 */
export const cohereModelListSchema = z.looseObject({ models: z.array(z.looseObject({ name: z.string() })).optional() });

/** Token usage as Cohere reports it. */
export type CohereUsage = z.infer<typeof cohereUsageSchema>;
/** A `/v2/chat` answer as read. */
export type CohereChatResponse = z.infer<typeof cohereChatResponseSchema>;
/** A `/v2/embed` answer as read. */
export type CohereEmbedResponse = z.infer<typeof cohereEmbedResponseSchema>;
/** A stream event this adapter reads. */
export type CohereStreamEvent = z.infer<typeof cohereKnownStreamEventSchema>;
