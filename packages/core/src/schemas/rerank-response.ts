import { z } from 'zod';

/**
 * The answer of `POST /v1/rerank` (Cohere's shape): `results` ordered from most to least relevant, each with the
 * document's `index` in the request (from 0), its `relevance_score` (0..1, higher is more relevant) and, when
 * `return_documents` was set, its `document.text`; `meta.billed_units.search_units` as the upstream billed it.
 * @see https://docs.cohere.com/reference/rerank
 */
export const rerankResponseSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  results: z.array(
    z.looseObject({
      index: z.number().int().min(0),
      relevance_score: z.number(),
      document: z.looseObject({ text: z.string() }).optional(),
    }),
  ),
  meta: z.looseObject({ billed_units: z.looseObject({ search_units: z.number().optional() }).optional() }).optional(),
});

/** A rerank answer. */
export type RerankResponse = z.infer<typeof rerankResponseSchema>;
