import { lenientField, openAIErrorBodySchema } from '@switchyard/core';
import { z } from 'zod';

/** One FastAPI validation issue: `{loc: ["body", "text"], msg, type}`. */
const validationIssueSchema = z.looseObject({
  loc: lenientField(z.array(z.union([z.string(), z.number()]))),
  msg: lenientField(z.string()),
});

/**
 * An ElevenLabs error body: `{"detail":{"status":"invalid_api_key","message":"..."}}`, FastAPI's
 * `{"detail":[{loc,msg,type}]}` for validation errors, or `{"detail":"text"}`; else OpenAI's shape (core's
 * `openAIErrorBodySchema`). Lenient, unknown fields kept.
 * @see https://elevenlabs.io/docs/api-reference/errors
 */
export const elevenLabsErrorBodySchema = openAIErrorBodySchema.extend({
  detail: lenientField(
    z.union([
      z.string(),
      z.array(lenientField(validationIssueSchema)),
      z.looseObject({ message: lenientField(z.string()), status: lenientField(z.string()) }),
    ]),
  ),
});

/** An ElevenLabs error body as read by {@link elevenLabsErrorBodySchema}. */
export type ElevenLabsErrorBody = z.infer<typeof elevenLabsErrorBodySchema>;
