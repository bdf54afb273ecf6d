import { z } from 'zod';
import { modelIdSchema } from './model-id.js';

/**
 * `POST /v1/images/generations` body (CreateImageRequest): `prompt`, `model`, `n` 1..10, `size` `WxH` or `auto`,
 * `quality` (standard|hd|low|medium|high|auto), `response_format` url|b64_json, `style`, `user`.
 * @see https://platform.openai.com/docs/api-reference/images/create
 */
export const imageGenerationRequestSchema = z.looseObject({
  prompt: z.string().min(1),
  model: modelIdSchema,
  n: z.number().int().min(1).max(10).nullish(),
  size: z
    .string()
    .regex(/^(\d+x\d+|auto)$/, 'must be WIDTHxHEIGHT, e.g. 1024x1024, or auto')
    .nullish(),
  quality: z.enum(['standard', 'hd', 'low', 'medium', 'high', 'auto']).nullish(),
  response_format: z.enum(['url', 'b64_json']).nullish(),
  style: z.enum(['vivid', 'natural']).nullish(),
  user: z.string().optional(),
});

/** A parsed image generation request. */
export type ImageGenerationRequest = z.infer<typeof imageGenerationRequestSchema>;
