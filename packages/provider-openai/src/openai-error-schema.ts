import { lenientField, openAIErrorObjectSchema } from '@switchyard/core';
import { z } from 'zod';

/**
 * A Responses stream's own failure: an `error` event (`{"type":"error","code","message","param"}`, some servers wrap
 * it in `{"error":{...}}`) or `response.failed` (`{"response":{"error":{code,message}}}`). Lenient like the body.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
export const responsesStreamErrorSchema = z.looseObject({
  ...openAIErrorObjectSchema.shape,
  error: lenientField(openAIErrorObjectSchema),
  response: lenientField(z.looseObject({ error: lenientField(openAIErrorObjectSchema) })),
});

/** A chat completions stream's `{"error":{...}}` event, sent by compatible servers mid-stream. */
export const chatStreamErrorSchema = z.looseObject({ error: openAIErrorObjectSchema });
