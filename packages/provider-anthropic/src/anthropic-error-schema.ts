import { lenientField } from '@switchyard/core';
import { z } from 'zod';

/**
 * The `error` object of an error body or of a stream's `error` event: `{type, message}`. Lenient: a field of the wrong
 * type is left out (the status then comes from HTTP), unknown fields kept.
 * @see https://docs.anthropic.com/en/api/errors
 */
export const anthropicErrorSchema = z.looseObject({
  type: lenientField(z.string()),
  message: lenientField(z.string()),
});

/** Anthropic's error body: `{"type":"error","error":{type, message},"request_id"}`; only `error` is read. */
export const anthropicErrorBodySchema = z.looseObject({ error: lenientField(anthropicErrorSchema) });

/** An Anthropic error object. */
export type AnthropicError = z.infer<typeof anthropicErrorSchema>;
