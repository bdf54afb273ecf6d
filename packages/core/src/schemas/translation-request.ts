import { z } from 'zod';
import { modelIdSchema } from './model-id.js';
import type { UploadedFile } from './transcription-request.js';

const numberField = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number());

/**
 * The text fields of a `POST /v1/audio/translations` multipart form (CreateTranslationRequest, without `file`): `model`,
 * `prompt` (in English), `response_format` (`json`, `text`, `srt`, `verbose_json`, `vtt`), `temperature` 0..1.
 * Multipart values arrive as strings; numbers are coerced. The answer is English text, in the shapes of a
 * transcription (`TranscriptionResult`).
 * @see https://platform.openai.com/docs/api-reference/audio/createTranslation
 */
export const translationFieldsSchema = z.looseObject({
  model: modelIdSchema,
  prompt: z.string().optional(),
  response_format: z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt']).optional(),
  temperature: numberField.pipe(z.number().min(0).max(1)).optional(),
});

/** A parsed translation request: the form's text fields plus the uploaded audio file. */
export type TranslationRequest = z.infer<typeof translationFieldsSchema> & { file: UploadedFile };
