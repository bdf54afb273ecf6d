import { MAX_EDIT_IMAGES } from '@switchyard/core';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { MAX_AUDIO_FILE_BYTES } from './upload-audio-file.js';
import { multipartForm } from './multipart-form.js';

/** Largest image (or mask) upload, bytes: 25 MB, the limit of the gateway's audio uploads. */
export const MAX_IMAGE_FILE_BYTES = MAX_AUDIO_FILE_BYTES;

/**
 * Parses the multipart form of `POST /v1/images/edits` (`images: true`: up to {@link MAX_EDIT_IMAGES} files as `image`
 * or `image[]`, and one `mask`) or `/v1/images/variations` (one `image`) into memory, each file at most
 * {@link MAX_IMAGE_FILE_BYTES}; text fields in `req.body`. Errors as `multipartForm` (415, 413, 400
 * `invalid_multipart`); a file field of another name is multer's `LIMIT_UNEXPECTED_FILE` (400 naming it).
 */
export function uploadImageFiles(images: boolean): RequestHandler[] {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_IMAGE_FILE_BYTES, files: images ? MAX_EDIT_IMAGES + 1 : 1, fields: 32 },
  });
  const fields = images
    ? [
        { name: 'image', maxCount: MAX_EDIT_IMAGES },
        { name: 'image[]', maxCount: MAX_EDIT_IMAGES },
        { name: 'mask', maxCount: 1 },
      ]
    : [{ name: 'image', maxCount: 1 }];
  return multipartForm(upload.fields(fields), 'the image');
}
