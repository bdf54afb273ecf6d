import { GatewayError } from '@switchyard/core';
import type { RequestHandler } from 'express';
import multer from 'multer';
import type { Files } from '../../files/files.js';

/** The id the upload of this request is written under (set by {@link uploadToStorage}). */
export const UPLOAD_ID = Symbol('switchyard.uploadId');

/** A request being uploaded by {@link uploadToStorage}. */
export type UploadingRequest = { [UPLOAD_ID]?: string };

/**
 * Parses a `multipart/form-data` upload with multer, streaming the one file field `file` straight into the file
 * storage under a new file id (never held whole in memory), at most `files.limits.maxBytes` bytes; text fields go to
 * `req.body`. Other content types get 415; a file over the limit 413 `file_too_large`; a malformed form 400
 * `invalid_multipart`. On any failure the bytes written so far are deleted.
 * @see https://github.com/expressjs/multer#diskstorage
 */
export function uploadToStorage(files: Files): RequestHandler[] {
  const storage = multer.diskStorage({
    destination: files.storage.dir,
    filename: (req, _file, done) => {
      const id = files.newId();
      (req as UploadingRequest)[UPLOAD_ID] = id;
      done(null, id);
    },
  });
  const parse = multer({
    storage,
    limits: { fileSize: files.limits.maxBytes, files: 1, fields: 8, fieldSize: 64 * 1024 },
  }).single('file');
  const requireMultipart: RequestHandler = (req, _res, next) => {
    if (!req.is('multipart/form-data')) {
      throw new GatewayError({
        status: 415,
        type: 'invalid_request_error',
        code: 'unsupported_media_type',
        message: `Unsupported Content-Type '${req.get('content-type') ?? '(none)'}': upload the file as multipart/form-data.`,
      });
    }
    next();
  };
  const parseForm: RequestHandler = (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error === undefined) return next();
      const id = (req as UploadingRequest)[UPLOAD_ID];
      const removed = id ? files.storage.remove(id) : Promise.resolve();
      removed.catch(() => {}).finally(() => next(uploadError(error, files.limits.maxBytes)));
    });
  };
  return [requireMultipart, parseForm];
}

/** multer's failure as the client's error: the size limit as 413 naming it, anything else as a 400 or as it was. */
function uploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof multer.MulterError && error.code === 'LIMIT_FILE_SIZE') {
    return new GatewayError({
      status: 413,
      type: 'invalid_request_error',
      code: 'file_too_large',
      param: 'file',
      message: `The uploaded file exceeds the ${maxBytes} byte limit.`,
    });
  }
  if (error instanceof multer.MulterError || GatewayError.isInstance(error)) return error;
  return new GatewayError({
    status: 400,
    type: 'invalid_request_error',
    code: 'invalid_multipart',
    message: `Invalid multipart form: ${(error as Error).message ?? 'it could not be parsed'}.`,
    cause: error,
  });
}
