import { z } from 'zod';
import { modelIdSchema } from './model-id.js';

const numberField = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number());

/** Output formats of `/v1/audio/transcriptions` (AudioResponseFormat). */
export const transcriptionResponseFormatSchema = z.enum([
  'json',
  'text',
  'srt',
  'verbose_json',
  'vtt',
  'diarized_json',
]);

/**
 * The text fields of a `POST /v1/audio/transcriptions` multipart form (CreateTranscriptionRequest, without `file`):
 * `model`, `language` (ISO-639-1), `prompt`, `response_format`, `temperature` 0..1,
 * `timestamp_granularities[]` (`word` | `segment`). Multipart values arrive as strings; numbers are coerced.
 * @see https://platform.openai.com/docs/api-reference/audio/createTranscription
 */
export const transcriptionFieldsSchema = z.looseObject({
  model: modelIdSchema,
  language: z.string().optional(),
  prompt: z.string().optional(),
  response_format: transcriptionResponseFormatSchema.optional(),
  temperature: numberField.pipe(z.number().min(0).max(1)).optional(),
  'timestamp_granularities[]': z.union([z.enum(['word', 'segment']), z.array(z.enum(['word', 'segment']))]).optional(),
});

/** An uploaded audio file held in memory: bytes, the client's file name and content type. */
export interface UploadedFile {
  /** The file's bytes (at most 25 MB through the gateway). */
  data: Uint8Array;
  /** File name as the client sent it, e.g. `speech.wav`. */
  filename: string;
  /** MIME type as the client sent it, e.g. `audio/wav`. */
  contentType: string;
}

/** A parsed transcription request: the form's text fields plus the uploaded file. */
export type TranscriptionRequest = z.infer<typeof transcriptionFieldsSchema> & { file: UploadedFile };
/** A transcription output format. */
export type TranscriptionResponseFormat = z.infer<typeof transcriptionResponseFormatSchema>;
