import type { RequestHandler } from 'express';
import multer from 'multer';
import { multipartForm } from './multipart-form.js';

/** Largest audio upload, bytes: 25 MB, as OpenAI's transcription API. */
export const MAX_AUDIO_FILE_BYTES = 25 * 1024 * 1024;

/**
 * Parses `multipart/form-data` with multer into memory: one file field `file` (at most {@link MAX_AUDIO_FILE_BYTES}),
 * text fields in `req.body`. Other content types get 415; multer's limit errors become 413 in the error handler; a
 * malformed form (no boundary, bad part headers, cut short) gets 400 `invalid_multipart` (see `multipartForm`).
 */
export function uploadAudioFile(): RequestHandler[] {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_AUDIO_FILE_BYTES, files: 1, fields: 32 },
  });
  return multipartForm(upload.single('file'), 'the audio');
}
