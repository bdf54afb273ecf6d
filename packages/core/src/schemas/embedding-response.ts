import { z } from 'zod';
import { tokenCountSchema } from './completion-usage.js';

/**
 * The embeddings answer (CreateEmbeddingResponse): `{object:"list", data[{object:"embedding", index, embedding}], model,
 * usage{prompt_tokens, total_tokens}}`. `embedding` is a float array, or a base64 string of little-endian float32
 * when the request asked for `encoding_format: "base64"`.
 * @see https://platform.openai.com/docs/api-reference/embeddings/object
 */
export const embeddingResponseSchema = z.looseObject({
  object: z.literal('list'),
  data: z.array(
    z.looseObject({
      object: z.literal('embedding'),
      index: z.number().int(),
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
  model: z.string(),
  usage: z.looseObject({ prompt_tokens: tokenCountSchema, total_tokens: tokenCountSchema }),
});

/** The embeddings answer. */
export type EmbeddingResponse = z.infer<typeof embeddingResponseSchema>;
