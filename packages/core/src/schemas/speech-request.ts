import { z } from 'zod';
import { modelIdSchema } from './model-id.js';

/**
 * `POST /v1/audio/speech` body (CreateSpeechRequest): `model`, `input` (at most 4096 characters), `voice`
 * (a voice name or `{id}`), `instructions`, `response_format` mp3|opus|aac|flac|wav|pcm, `speed` 0.25..4.
 * @see https://platform.openai.com/docs/api-reference/audio/createSpeech
 */
export const speechRequestSchema = z.looseObject({
  model: modelIdSchema,
  input: z.string().min(1).max(4096),
  voice: z.union([z.string().min(1), z.looseObject({ id: z.string() })]),
  instructions: z.string().optional(),
  response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).optional(),
  speed: z.number().min(0.25).max(4).optional(),
  stream_format: z.enum(['sse', 'audio']).optional(),
});

/** A parsed speech request. */
export type SpeechRequest = z.infer<typeof speechRequestSchema>;

/**
 * What an adapter returns for speech: the audio's MIME type (e.g. `audio/mpeg`) and its bytes as they arrive,
 * never buffered whole.
 */
export interface SpeechResult {
  contentType: string;
  body: AsyncIterable<Uint8Array>;
}
