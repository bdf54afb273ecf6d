import { tokenCountSchema } from '@switchyard/core';
import { z } from 'zod';

// The fields this adapter reads of the Gemini API's answers (and Vertex AI's, which share them), as zod schemas: only
// what is read, every other field kept as sent (`looseObject`). Each answer and stream event goes through one of
// these (`readUpstreamJson`, `readUpstreamEvent`), so that a malformed one is a 502 `upstream_invalid_response`
// naming the provider, never a cast, a `TypeError` or made-up usage.

/**
 * One part of a candidate's content: `text` (with `thought: true` a thought summary), a `functionCall` (`name`, `args`
 * object, `id`?), a `thoughtSignature`.
 * @see https://ai.google.dev/api/caching#Part
 */
export const geminiPartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  functionCall: z
    .looseObject({ name: z.string(), args: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() })
    .optional(),
});

const logprobsCandidateSchema = z.looseObject({
  token: z.string().optional(),
  tokenId: z.number().optional(),
  logProbability: z.number().optional(),
});

/**
 * A candidate's `groundingMetadata` (Grounding with Google Search): `webSearchQueries` (the searches the model ran),
 * `groundingChunks` (the sources: `web: {uri, title}`), `groundingSupports` (which text each source supports:
 * `segment: {partIndex?, startIndex?, endIndex?, text?}`, offsets in UTF-8 bytes of the part's text, and
 * `groundingChunkIndices`). Other fields (`searchEntryPoint`, `retrievalMetadata`...) are kept as sent.
 * @see https://ai.google.dev/api/generate-content#GroundingMetadata
 * @see https://ai.google.dev/gemini-api/docs/google-search
 */
export const geminiGroundingMetadataSchema = z.looseObject({
  webSearchQueries: z.array(z.string()).nullish(),
  groundingChunks: z
    .array(
      z.looseObject({ web: z.looseObject({ uri: z.string().optional(), title: z.string().optional() }).nullish() }),
    )
    .nullish(),
  groundingSupports: z
    .array(
      z.looseObject({
        segment: z
          .looseObject({
            partIndex: z.number().int().min(0).optional(),
            startIndex: z.number().int().min(0).optional(),
            endIndex: z.number().int().min(0).optional(),
          })
          .nullish(),
        groundingChunkIndices: z.array(z.number().int().min(0)).nullish(),
      }),
    )
    .nullish(),
});

/**
 * A candidate: `content.parts`, `finishReason`, `index`, `logprobsResult` (with `responseLogprobs`).
 * @see https://ai.google.dev/api/generate-content#candidate
 */
export const geminiCandidateSchema = z.looseObject({
  content: z
    .looseObject({ role: z.enum(['user', 'model']).optional(), parts: z.array(geminiPartSchema).optional() })
    .optional(),
  finishReason: z.string().optional(),
  index: z.number().int().min(0).optional(),
  groundingMetadata: geminiGroundingMetadataSchema.optional(),
  logprobsResult: z
    .looseObject({
      chosenCandidates: z.array(logprobsCandidateSchema).optional(),
      topCandidates: z.array(z.looseObject({ candidates: z.array(logprobsCandidateSchema).optional() })).optional(),
    })
    .optional(),
});

/**
 * `usageMetadata` (tokens, cumulative within a stream): prompt, candidates, thoughts, cached, total.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export const geminiUsageMetadataSchema = z.looseObject({
  promptTokenCount: tokenCountSchema.optional(),
  candidatesTokenCount: tokenCountSchema.optional(),
  thoughtsTokenCount: tokenCountSchema.optional(),
  cachedContentTokenCount: tokenCountSchema.optional(),
  totalTokenCount: tokenCountSchema.optional(),
});

/**
 * The `generateContent` answer, also each event of `streamGenerateContent?alt=sse`: `candidates`, `promptFeedback`
 * (`blockReason`, `blockReasonMessage`), `usageMetadata`, `modelVersion`, `responseId`.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
export const geminiGenerateContentResponseSchema = z.looseObject({
  candidates: z.array(geminiCandidateSchema).optional(),
  promptFeedback: z
    .looseObject({ blockReason: z.string().optional(), blockReasonMessage: z.string().optional() })
    .optional(),
  usageMetadata: geminiUsageMetadataSchema.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
});

/**
 * One event of a `streamGenerateContent?alt=sse` stream: a partial answer, or `{error: {code, message, status}}` when
 * the upstream fails mid-way.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export const geminiStreamEventSchema = geminiGenerateContentResponseSchema.extend({
  error: z
    .looseObject({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional() })
    .optional(),
});

/**
 * The `batchEmbedContents` answer: `{embeddings: [{values: number[]}]}`.
 * @see https://ai.google.dev/api/embeddings#method:-models.batchembedcontents
 */
export const geminiBatchEmbedResponseSchema = z.looseObject({
  embeddings: z.array(z.looseObject({ values: z.array(z.number()) })).optional(),
});

/**
 * Imagen's `:predict` answer (Gemini API and Vertex AI): `{predictions: [{bytesBase64Encoded?, mimeType?,
 * raiFilteredReason?}]}`.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/imagen-api#response_body
 */
export const imagenPredictResponseSchema = z.looseObject({
  predictions: z
    .array(
      z.looseObject({
        bytesBase64Encoded: z.string().optional(),
        mimeType: z.string().optional(),
        raiFilteredReason: z.string().optional(),
      }),
    )
    .optional(),
});

/**
 * `GET models`: `{models: [{name: "models/...", thinking?: boolean}]}`.
 * @see https://ai.google.dev/api/models#method:-models.list
 */
export const geminiModelListSchema = z.looseObject({
  models: z.array(z.looseObject({ name: z.string(), thinking: z.unknown().optional() })).optional(),
});
