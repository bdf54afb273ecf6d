import { z } from 'zod';

/**
 * A model entry (Model): `{id, object:"model", created (unix s), owned_by}`.
 * @see https://platform.openai.com/docs/api-reference/models/object
 */
export const modelSchema = z.looseObject({
  id: z.string(),
  object: z.literal('model'),
  created: z.number(),
  owned_by: z.string(),
});

/** `GET /v1/models` answer (ListModelsResponse): `{object:"list", data: Model[]}`. */
export const modelListSchema = z.object({ object: z.literal('list'), data: z.array(modelSchema) });

/** A model entry. */
export type Model = z.infer<typeof modelSchema>;
/** The models list. */
export type ModelList = z.infer<typeof modelListSchema>;
