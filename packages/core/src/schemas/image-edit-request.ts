import { z } from 'zod';
import { modelIdSchema } from './model-id.js';
import type { UploadedFile } from './transcription-request.js';

/** Most images one `POST /v1/images/edits` form may carry (OpenAI's limit for GPT image models). */
export const MAX_EDIT_IMAGES = 16;

/** A multipart number field: a string of digits becomes a number (then checked as `schema` says). */
const numberField = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
/** A multipart boolean field: `true` / `false` as text, or a JSON boolean. */
const booleanField = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());
const sizeField = z.string().regex(/^(\d+x\d+|auto)$/, 'must be WIDTHxHEIGHT, e.g. 1024x1024, or auto');

/**
 * The text fields of a `POST /v1/images/edits` multipart form (CreateImageEditRequest, without the files): `prompt`
 * (required), `model` (default `gpt-image-1.5`, OpenAI's), `n` 1..10, `size` `WxH` or `auto`, `quality`
 * (standard|low|medium|high|auto), `background` (transparent|opaque|auto), `output_format` (png|jpeg|webp),
 * `output_compression` 0..100 (%), `response_format` (url|b64_json, dall-e-2), `input_fidelity` (high|low), `stream`,
 * `partial_images` 0..3, `user`. Multipart values arrive as strings; numbers and booleans are coerced. Unknown fields
 * pass through.
 * @see https://platform.openai.com/docs/api-reference/images/createEdit
 */
export const imageEditFieldsSchema = z.looseObject({
  model: modelIdSchema.default('gpt-image-1.5'),
  prompt: z.string().min(1),
  n: numberField(z.number().int().min(1).max(10)).optional(),
  size: sizeField.optional(),
  quality: z.enum(['standard', 'low', 'medium', 'high', 'auto']).optional(),
  background: z.enum(['transparent', 'opaque', 'auto']).optional(),
  output_format: z.enum(['png', 'jpeg', 'webp']).optional(),
  output_compression: numberField(z.number().int().min(0).max(100)).optional(),
  response_format: z.enum(['url', 'b64_json']).optional(),
  input_fidelity: z.enum(['high', 'low']).optional(),
  stream: booleanField.optional(),
  partial_images: numberField(z.number().int().min(0).max(3)).optional(),
  user: z.string().optional(),
});

/** A parsed image edit request: the form's text fields, the images (1..{@link MAX_EDIT_IMAGES}) and the optional mask. */
export type ImageEditRequest = z.infer<typeof imageEditFieldsSchema> & { images: UploadedFile[]; mask?: UploadedFile };

/**
 * The text fields of a `POST /v1/images/variations` multipart form (CreateImageVariationRequest, without `image`):
 * `model` (default `dall-e-2`), `n` 1..10, `size` (256x256|512x512|1024x1024), `response_format` (url|b64_json), `user`.
 * @see https://platform.openai.com/docs/api-reference/images/createVariation
 */
export const imageVariationFieldsSchema = z.looseObject({
  model: modelIdSchema.default('dall-e-2'),
  n: numberField(z.number().int().min(1).max(10)).optional(),
  size: z.enum(['256x256', '512x512', '1024x1024']).optional(),
  response_format: z.enum(['url', 'b64_json']).optional(),
  user: z.string().optional(),
});

/** A parsed image variation request: the form's text fields plus the image. */
export type ImageVariationRequest = z.infer<typeof imageVariationFieldsSchema> & { image: UploadedFile };
