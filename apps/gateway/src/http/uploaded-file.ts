import type { UploadedFile } from '@switchyard/core';

/**
 * A file multer parsed (`req.file`, `req.files[...]`) as core's {@link UploadedFile}: its bytes (not copied), the client's
 * file name (`fallbackName` when it sent none) and content type (`application/octet-stream` when it sent none).
 */
export function uploadedFileOf(file: Express.Multer.File, fallbackName: string): UploadedFile {
  return {
    data: new Uint8Array(file.buffer.buffer, file.buffer.byteOffset, file.buffer.byteLength),
    filename: file.originalname || fallbackName,
    contentType: file.mimetype || 'application/octet-stream',
  };
}
