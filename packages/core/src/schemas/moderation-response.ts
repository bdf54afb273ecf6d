import { z } from 'zod';

/**
 * The moderation answer (CreateModerationResponse): `{id, model, results[{flagged, categories{<category>: boolean},
 * category_scores{<category>: number 0..1}, category_applied_input_types?{<category>: ("text"|"image")[]}}]}`, one result
 * per input (a multi-modal input gives one result). OpenAI's categories are `harassment`, `harassment/threatening`,
 * `hate`, `hate/threatening`, `illicit`, `illicit/violent`, `self-harm`, `self-harm/intent`, `self-harm/instructions`,
 * `sexual`, `sexual/minors`, `violence`, `violence/graphic`; other keys are kept.
 * @see https://platform.openai.com/docs/api-reference/moderations/object
 */
export const moderationResponseSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  results: z.array(
    z.looseObject({
      flagged: z.boolean(),
      categories: z.record(z.string(), z.boolean().nullable()),
      category_scores: z.record(z.string(), z.number()),
    }),
  ),
});

/** A moderation answer. */
export type ModerationResponse = z.infer<typeof moderationResponseSchema>;
