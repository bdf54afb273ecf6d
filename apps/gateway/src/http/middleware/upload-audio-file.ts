import { GatewayError } from '@switchyard/core';
import type { RequestHandler } from 'express';
import multer from 'multer';

/** Largest audio upload, bytes: 25 MB, as OpenAI's transcription API. */
export const MAX_AUDIO_FILE_BYTES = 25 * 1024 * 1024;

/**
 * Parses `multipart/form-data` with multer into memory: one file field `file` (at most {@link MAX_AUDIO_FILE_BYTES}),
 * text fields in `req.body`. Other content types get 415; multer's limit errors become 413 in the error handler; a
 * malformed form (no boundary, bad part headers, cut short) gets 400 `invalid_multipart`.
 */
export function uploadAudioFile(): RequestHandler[] {
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_AUDIO_FILE_BYTES, files: 1, fields: 32 } });
  const requireMultipart: RequestHandler = (req, _res, next) => {
    if (!req.is('multipart/form-data')) {
      throw new GatewayError({
        status: 415,
        type: 'invalid_request_error',
        code: 'unsupported_media_type',
        message: `Unsupported Content-Type '${req.get('content-type') ?? '(none)'}': send the audio as multipart/form-data.`,
      });
    }
    next();
  };
  const parse = upload.single('file');
  // multer's own limit errors are mapped by the error handler; anything else the form parser throws (no boundary,
  // a malformed part header, a body that ends mid-form) is the client's malformed form: 400, never 500.
  const parseForm: RequestHandler = (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error === undefined || error instanceof multer.MulterError || GatewayError.isInstance(error)) {
        next(error);
        return;
      }
      next(new GatewayError({ status: 400, type: 'invalid_request_error', code: 'invalid_multipart', message: `Invalid multipart form: ${(error as Error).message ?? 'it could not be parsed'}.`, cause: error }));
    });
  };
  return [requireMultipart, parseForm];
}
