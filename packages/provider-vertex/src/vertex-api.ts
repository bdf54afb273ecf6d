import { tokenCountSchema } from '@switchyard/core';
import { z } from 'zod';

// The fields this adapter reads of Vertex AI's answers that the Gemini and Anthropic adapters' schemas do not cover
// (Gemini answers and events: provider-google's `gemini-api.ts`; Imagen: `imagenPredictResponseSchema`; Claude:
// provider-anthropic's `anthropic-response-schemas.ts`). Only what is read; every other field is kept as sent.

/**
 * The text-embeddings `:predict` answer: `{predictions: [{embeddings: {values: number[], statistics: {token_count
 * (tokens), truncated}}}]}`.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api#response_body
 */
export const vertexEmbeddingResponseSchema = z.looseObject({
  predictions: z
    .array(
      z.looseObject({
        embeddings: z
          .looseObject({
            values: z.array(z.number()).optional(),
            statistics: z
              .looseObject({ token_count: tokenCountSchema.optional(), truncated: z.boolean().optional() })
              .optional(),
          })
          .optional(),
      }),
    )
    .optional(),
});

/** A text-embeddings answer as read. */
export type VertexEmbeddingResponse = z.infer<typeof vertexEmbeddingResponseSchema>;
