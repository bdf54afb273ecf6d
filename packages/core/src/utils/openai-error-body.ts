import { lenientField } from './lenient-field.js';
import { z } from 'zod';

/** A code is a string for OpenAI, a number for some compatible servers (`"code": 404`); read as text. */
const codeSchema = lenientField(z.union([z.string(), z.number().transform(String)]));

/**
 * The `error` object of an OpenAI(-compatible) error body: only the fields the mapper reads, unknown fields kept. Shared
 * by every adapter whose upstream answers errors in OpenAI's shape (or behind a proxy that does).
 */
export const openAIErrorObjectSchema = z.looseObject({
  message: lenientField(z.string()),
  type: lenientField(z.string()),
  param: lenientField(z.string()),
  code: codeSchema,
});

/**
 * An OpenAI(-compatible) error body: `{"error":{message,type,param,code}}`, or what compatible servers send instead
 * (`{"error":"text"}`, a bare `{"message":...}`). Every field optional and lenient: a body that is not of this shape
 * still gives the upstream's status.
 * @see https://platform.openai.com/docs/guides/error-codes/api-errors
 */
export const openAIErrorBodySchema = z.looseObject({
  error: lenientField(z.union([z.string(), openAIErrorObjectSchema])),
  message: lenientField(z.string()),
  type: lenientField(z.string()),
  param: lenientField(z.string()),
  code: codeSchema,
});

/** The `error` object of an OpenAI(-compatible) error body as read by {@link openAIErrorObjectSchema}. */
export type OpenAIErrorObject = z.infer<typeof openAIErrorObjectSchema>;

/** An OpenAI(-compatible) error body as read by {@link openAIErrorBodySchema}. */
export type OpenAIErrorBody = z.infer<typeof openAIErrorBodySchema>;
