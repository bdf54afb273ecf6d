import { z } from 'zod';
import { modelIdSchema } from './model-id.js';

/**
 * `POST /v1/rerank` body, in Cohere's shape (the de-facto standard that Jina, Voyage, vLLM and others follow too):
 * `query`, `documents` (at most 1,000 strings, or objects with a `text` field), `top_n` (how many results, at least 1),
 * `return_documents` (echo each document's text in its result), `max_tokens_per_doc` (tokens; longer documents are
 * truncated by the upstream). Unknown fields are kept.
 * @see https://docs.cohere.com/reference/rerank
 */
export const rerankRequestSchema = z.looseObject({
  model: modelIdSchema,
  query: z.string().min(1),
  documents: z
    .array(z.union([z.string(), z.looseObject({ text: z.string() })]))
    .min(1)
    .max(1000),
  top_n: z.number().int().min(1).optional(),
  return_documents: z.boolean().optional(),
  max_tokens_per_doc: z.number().int().min(1).optional(),
});

/** A parsed rerank request. */
export type RerankRequest = z.infer<typeof rerankRequestSchema>;
