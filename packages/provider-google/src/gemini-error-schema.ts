import { lenientField } from '@switchyard/core';
import { z } from 'zod';

/** One entry of `error.details`: `ErrorInfo` (`reason`, e.g. `API_KEY_INVALID`) or `RetryInfo` (`retryDelay`, e.g. `"7s"`). */
const googleErrorDetailSchema = z.looseObject({
  '@type': lenientField(z.string()),
  reason: lenientField(z.string()),
  retryDelay: lenientField(z.string()),
});

/** Google's `error` object: `{code, message, status, details}`. Lenient: a field of the wrong type is left out. */
export const googleErrorObjectSchema = z.looseObject({
  code: lenientField(z.number()),
  message: lenientField(z.string()),
  status: lenientField(z.string()),
  details: lenientField(z.array(lenientField(googleErrorDetailSchema))),
});

/**
 * A Google API error body (Gemini, Vertex): `{"error":{code, message, status, details}}`, also the bare JSON body a
 * stream appends when it fails mid-way. Only the fields the mapper reads; unknown fields kept.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 * @see https://cloud.google.com/apis/design/errors#http_mapping
 */
export const googleErrorBodySchema = z.looseObject({ error: lenientField(googleErrorObjectSchema) });

/** A Google API error body as read by {@link googleErrorBodySchema}. */
export type GoogleErrorBody = z.infer<typeof googleErrorBodySchema>;
