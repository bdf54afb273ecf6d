import { GatewayError } from '@switchyard/core';
import type { ErrorRequestHandler } from 'express';
import multer from 'multer';
import { locals } from '../request-locals.js';

function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (error instanceof multer.MulterError) {
    const tooLarge = error.code === 'LIMIT_FILE_SIZE' || error.code === 'LIMIT_FIELD_VALUE' || error.code === 'LIMIT_PART_COUNT';
    return new GatewayError({
      status: tooLarge ? 413 : 400,
      type: 'invalid_request_error',
      code: tooLarge ? 'file_too_large' : 'invalid_multipart',
      param: error.field ?? null,
      message: error.code === 'LIMIT_FILE_SIZE' ? 'The uploaded file exceeds the 25 MB limit.' : `Invalid multipart form: ${error.message}.`,
    });
  }
  const bodyError = error as { status?: number };
  if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
    return new GatewayError({ status: bodyError.status, type: 'invalid_request_error', message: (error as Error).message });
  }
  return new GatewayError({ status: 500, type: 'server_error', message: 'The gateway failed to process the request.', cause: error });
}

/**
 * The last Express middleware: answers any error with its status and the OpenAI body
 * `{"error":{message,type,param,code}}`. Unknown errors become 500 without details (logged, never sent).
 * If the response already started (a stream), the connection is closed instead.
 */
export function handleErrors(): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const gatewayError = toGatewayError(error);
    if (gatewayError.status >= 500) locals(res).error = error;
    locals(res).failure = gatewayError;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(gatewayError.status).set(gatewayError.headers).json(gatewayError.toJSON());
  };
}
