import { z } from 'zod';

/**
 * The OpenAI error body: `{"error":{"message","type","param","code"}}`, all four keys always present
 * (`param` and `code` may be null). Every error the gateway answers has this shape.
 * @see https://platform.openai.com/docs/api-reference/errors (ErrorResponse in openai-openapi.yaml)
 */
export const errorBodySchema = z.object({
  error: z.looseObject({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

/** The OpenAI error body, as sent on the wire. */
export type ErrorBody = z.infer<typeof errorBodySchema>;
