import { z } from 'zod';
import { modelIdSchema } from './model-id.js';

/**
 * `POST /v1/embeddings` body (CreateEmbeddingRequest): `input` is a string, an array of strings, an array of
 * token ids or an array of token-id arrays (at most 2048 items); `encoding_format` `float` (default) or `base64`
 * (little-endian float32, base64-encoded); `dimensions` (positive integer) truncates the vectors where supported.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 */
export const embeddingRequestSchema = z.looseObject({
  model: modelIdSchema,
  input: z.union([
    z.string(),
    z.array(z.string()).min(1).max(2048),
    z.array(z.number().int()).min(1),
    z.array(z.array(z.number().int()).min(1)).min(1).max(2048),
  ]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().min(1).optional(),
  user: z.string().optional(),
});

/** A parsed embeddings request. */
export type EmbeddingRequest = z.infer<typeof embeddingRequestSchema>;
