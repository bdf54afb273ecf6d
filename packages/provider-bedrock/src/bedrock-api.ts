import { tokenCountSchema } from '@switchyard/core';
import { z } from 'zod';

// The fields this adapter reads of Bedrock's answers and ConverseStream events, as zod schemas: only what is read,
// every other field kept as sent (`looseObject`). Every answer and event payload goes through one of these, so that a
// malformed one is a 502 `upstream_invalid_response` naming the provider, never a cast, a `TypeError` or made-up usage.

/**
 * Token counts of a Converse answer (tokens): `inputTokens`, `outputTokens`, `totalTokens`, cache reads and writes.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html
 */
export const converseUsageSchema = z.looseObject({
  inputTokens: tokenCountSchema,
  outputTokens: tokenCountSchema,
  totalTokens: tokenCountSchema.optional(),
  cacheReadInputTokens: tokenCountSchema.optional(),
  cacheWriteInputTokens: tokenCountSchema.optional(),
});

/** A reasoning block (`reasoningContent`): its text and signature, or redacted content. */
export const converseReasoningSchema = z.looseObject({
  reasoningText: z.looseObject({ text: z.string().optional(), signature: z.string().optional() }).optional(),
  redactedContent: z.string().optional(),
});

/**
 * A content block of an answer: `text`, `toolUse` (`toolUseId`, `name`, `input`), `reasoningContent`; other kinds are
 * passed over.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html
 */
export const converseContentBlockSchema = z.looseObject({
  text: z.string().optional(),
  toolUse: z.looseObject({ toolUseId: z.string(), name: z.string(), input: z.unknown().optional() }).optional(),
  reasoningContent: converseReasoningSchema.optional(),
});

/**
 * The `Converse` answer: `output.message.content[]`, `stopReason`, `usage`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
 */
export const converseResponseSchema = z.looseObject({
  output: z
    .looseObject({
      message: z
        .looseObject({
          role: z.literal('assistant').optional(),
          content: z.array(converseContentBlockSchema).optional(),
        })
        .optional(),
    })
    .optional(),
  stopReason: z.string().optional(),
  usage: converseUsageSchema.optional(),
});

const blockIndex = z.number().int().min(0);

/**
 * The payloads of the ConverseStream events this adapter reads, by `:event-type`; other event types are skipped.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
 */
export const converseStreamEventSchemas = {
  messageStart: z.looseObject({ role: z.string().optional() }),
  contentBlockStart: z.looseObject({
    contentBlockIndex: blockIndex,
    start: z.looseObject({ toolUse: z.looseObject({ toolUseId: z.string(), name: z.string() }).optional() }).optional(),
  }),
  contentBlockDelta: z.looseObject({
    contentBlockIndex: blockIndex,
    delta: z
      .looseObject({
        text: z.string().optional(),
        toolUse: z.looseObject({ input: z.string().optional() }).optional(),
        reasoningContent: z
          .looseObject({
            text: z.string().optional(),
            signature: z.string().optional(),
            redactedContent: z.string().optional(),
          })
          .optional(),
      })
      .optional(),
  }),
  contentBlockStop: z.looseObject({ contentBlockIndex: blockIndex }),
  messageStop: z.looseObject({ stopReason: z.string().optional() }),
  metadata: z.looseObject({ usage: converseUsageSchema.optional() }),
} as const;

/**
 * Titan Text Embeddings' `InvokeModel` answer: `embedding` (one vector), `inputTextTokenCount` (tokens), read as
 * `{vectors, tokens}`.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html
 */
export const titanEmbeddingResponseSchema = z
  .looseObject({ embedding: z.array(z.number()), inputTextTokenCount: tokenCountSchema.optional() })
  .transform((answer) => ({ vectors: [answer.embedding], tokens: answer.inputTextTokenCount }));

/**
 * Cohere Embed's `InvokeModel` answer: `embeddings` as vectors, or by type (`{float: [...]}`), read as `{vectors}`
 * (Cohere on Bedrock reports tokens in the `x-amzn-bedrock-input-token-count` header).
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-embed.html
 */
export const bedrockCohereEmbedResponseSchema = z
  .looseObject({
    embeddings: z.union([
      z.array(z.array(z.number())),
      z.looseObject({ float: z.array(z.array(z.number())).optional() }),
    ]),
  })
  .transform((answer) => ({
    vectors: (Array.isArray(answer.embeddings) ? answer.embeddings : answer.embeddings.float) ?? [],
    tokens: undefined as number | undefined,
  }));

/**
 * The image models' `InvokeModel` answer (Nova Canvas, Titan Image Generator): `images` (base64), `error` (a
 * content-filter refusal).
 * @see https://docs.aws.amazon.com/nova/latest/userguide/image-gen-req-resp-structure.html
 */
export const bedrockImageResponseSchema = z.looseObject({
  images: z.array(z.string()).optional(),
  error: z.string().nullish(),
});

/**
 * `ListFoundationModels`: `modelSummaries[]` of `{modelId, inputModalities}`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_ListFoundationModels.html
 */
export const bedrockModelListSchema = z.looseObject({
  modelSummaries: z.array(z.looseObject({ modelId: z.string(), inputModalities: z.unknown().optional() })).optional(),
});

/** Token counts of a Converse answer. */
export type ConverseUsage = z.infer<typeof converseUsageSchema>;
/** A Converse answer as read. */
export type ConverseResponse = z.infer<typeof converseResponseSchema>;
/** The payloads of the ConverseStream events read, by event type. */
export type ConverseStreamEvents = {
  [K in keyof typeof converseStreamEventSchemas]: z.infer<(typeof converseStreamEventSchemas)[K]>;
};
