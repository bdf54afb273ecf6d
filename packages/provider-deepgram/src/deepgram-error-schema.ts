import { lenientField, openAIErrorBodySchema } from '@switchyard/core';
import { z } from 'zod';

/**
 * A Deepgram error body: `{"err_code":"INVALID_AUTH","err_msg":"Invalid credentials.","request_id":...}`, or
 * OpenAI's shape from a proxy in front of it (core's `openAIErrorBodySchema`). Lenient, unknown fields kept.
 * @see https://developers.deepgram.com/docs/errors
 */
export const deepgramErrorBodySchema = openAIErrorBodySchema.extend({
  err_code: lenientField(z.string()),
  err_msg: lenientField(z.string()),
});
