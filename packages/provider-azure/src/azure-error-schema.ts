import { lenientField, openAIErrorBodySchema, openAIErrorObjectSchema } from '@switchyard/core';
import { z } from 'zod';

/** One category of Azure's content filter result: `{filtered, severity}` (or `{filtered, detected}`). */
const filterCategorySchema = z.looseObject({ filtered: lenientField(z.boolean()), severity: lenientField(z.string()) });

/**
 * An Azure OpenAI error body: OpenAI's (see provider-openai's `openAIErrorBodySchema`) plus `error.innererror`
 * (`{code: "ResponsibleAIPolicyViolation", content_filter_result: {<category>: {filtered, severity}}}`) on a
 * content-filter refusal. Lenient: a field of the wrong type is left out, unknown fields kept.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter
 */
export const azureErrorBodySchema = openAIErrorBodySchema.extend({
  error: lenientField(
    z.union([
      z.string(),
      openAIErrorObjectSchema.extend({
        innererror: lenientField(
          z.looseObject({
            code: lenientField(z.string()),
            content_filter_result: lenientField(z.record(z.string(), lenientField(filterCategorySchema))),
          }),
        ),
      }),
    ]),
  ),
});

/** An Azure OpenAI error body as read by {@link azureErrorBodySchema}. */
export type AzureErrorBody = z.infer<typeof azureErrorBodySchema>;
