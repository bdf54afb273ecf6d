import { z } from 'zod';

// What this example adapter reads of Cohere's v2 answers, as zod schemas (only the fields read, unknown ones kept):
// a third-party adapter reads every upstream body through a schema, never a cast, so that a malformed answer is a
// 502 `upstream_invalid_response` naming the provider.

const tokens = z.number().int().min(0);
const countsSchema = z.looseObject({ input_tokens: tokens.optional(), output_tokens: tokens.optional() });

/**
 * `usage` (tokens): `billed_units` and `tokens`, each `{input_tokens, output_tokens}`; `cached_tokens`.
 * @see https://docs.cohere.com/reference/chat#response.body.usage
 */
export const cohereUsageSchema = z.looseObject({
  billed_units: countsSchema.optional(),
  tokens: countsSchema.optional(),
  cached_tokens: tokens.optional(),
});

/**
 * The `POST /v2/chat` answer: `id`, `message.content[]` of `{type, text}`, `finish_reason`, `usage`.
 * @see https://docs.cohere.com/reference/chat
 */
export const cohereChatResponseSchema = z.looseObject({
  id: z.string(),
  message: z.looseObject({
    content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).optional(),
  }),
  finish_reason: z.string(),
  usage: cohereUsageSchema.optional(),
});

/**
 * The `/v2/chat` stream events read, told apart by `type`: `message-start` (`id`), `content-delta`
 * (`delta.message.content.text`), `message-end` (`delta.finish_reason`, `delta.usage`). Other types are skipped.
 * @see https://docs.cohere.com/reference/chat-stream
 */
export const cohereStreamEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message-start'), id: z.string().optional() }),
  z.looseObject({
    type: z.literal('content-delta'),
    delta: z.looseObject({ message: z.looseObject({ content: z.looseObject({ text: z.string() }) }) }),
  }),
  z.looseObject({
    type: z.literal('message-end'),
    delta: z.looseObject({ finish_reason: z.string(), usage: cohereUsageSchema.optional() }),
  }),
]);

/** Any stream event: its `type`. */
export const cohereAnyEventSchema = z.looseObject({ type: z.string() });

/** Cohere's error body: `{message}`. */
export const cohereErrorSchema = z.looseObject({ message: z.string() });

/** Token usage as Cohere reports it. */
export type CohereUsage = z.infer<typeof cohereUsageSchema>;
/** A chat answer as read. */
export type CohereChatResponse = z.infer<typeof cohereChatResponseSchema>;
/** A stream event this adapter reads. */
export type CohereStreamEvent = z.infer<typeof cohereStreamEventSchema>;
