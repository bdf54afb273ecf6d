import { GatewayError } from '@switchyard/core';
import type { RequestHandler } from 'express';
import multer from 'multer';

/**
 * The handlers that parse a `multipart/form-data` upload with `parse` (a multer middleware): other content types get
 * 415 naming `what` (e.g. `the audio`); multer's own limit errors go on to the error handler (413); anything else the
 * form parser throws (no boundary, a malformed part header, a body that ends mid-form) is the client's malformed form:
 * 400 `invalid_multipart`, never 500.
 */
export function multipartForm(parse: RequestHandler, what: string): RequestHandler[] {
  const requireMultipart: RequestHandler = (req, _res, next) => {
    if (!req.is('multipart/form-data')) {
      throw new GatewayError({
        status: 415,
        type: 'invalid_request_error',
        code: 'unsupported_media_type',
        message: `Unsupported Content-Type '${req.get('content-type') ?? '(none)'}': send ${what} as multipart/form-data.`,
      });
    }
    next();
  };
  const parseForm: RequestHandler = (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error === undefined || error instanceof multer.MulterError || GatewayError.isInstance(error)) {
        next(error);
        return;
      }
      next(
        new GatewayError({
          status: 400,
          type: 'invalid_request_error',
          code: 'invalid_multipart',
          message: `Invalid multipart form: ${(error as Error).message ?? 'it could not be parsed'}.`,
          cause: error,
        }),
      );
    });
  };
  return [requireMultipart, parseForm];
}
