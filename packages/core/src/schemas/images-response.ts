import { z } from 'zod';

/**
 * The images answer (ImagesResponse): `{created (unix s), data[{url? | b64_json?, revised_prompt?}], usage?}`.
 * @see https://platform.openai.com/docs/api-reference/images/object
 */
export const imagesResponseSchema = z.looseObject({
  created: z.number(),
  data: z.array(
    z.looseObject({
      url: z.string().optional(),
      b64_json: z.string().optional(),
      revised_prompt: z.string().optional(),
    }),
  ),
});

/** The images answer. */
export type ImagesResponse = z.infer<typeof imagesResponseSchema>;
