import { GatewayError, type GatewayErrorCode, redactGatewayError } from '@switchyard/core';
import type { ErrorRequestHandler, Response } from 'express';
import multer from 'multer';
import { locals } from '../request-locals.js';

/** multer's limit errors: the 413 code and message each one gets. */
const MULTER_LIMITS: Record<string, { code: GatewayErrorCode; message: (field?: string) => string }> = {
  LIMIT_FILE_SIZE: { code: 'file_too_large', message: () => 'The uploaded file exceeds the 25 MB limit.' },
  LIMIT_FIELD_VALUE: {
    code: 'field_too_large',
    message: (field) => `The form field '${field ?? '?'}' exceeds the 1 MB limit of a text field.`,
  },
  LIMIT_FIELD_KEY: { code: 'field_too_large', message: () => 'A form field name exceeds the 100 character limit.' },
  LIMIT_PART_COUNT: { code: 'too_many_parts', message: () => 'The form has too many parts.' },
  LIMIT_FIELD_COUNT: { code: 'too_many_parts', message: () => 'The form has more than 32 text fields.' },
  LIMIT_FILE_COUNT: {
    code: 'too_many_parts',
    message: () => 'The form has more files than the endpoint takes (one; image edits: 16 images and a mask).',
  },
};

/** Any error of a request (body parser, multer, unknown) as a {@link GatewayError}: 4xx kept, anything else 500. */
export function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (error instanceof multer.MulterError) {
    const limit = MULTER_LIMITS[error.code];
    return new GatewayError({
      status: limit ? 413 : 400,
      type: 'invalid_request_error',
      code: limit?.code ?? 'invalid_multipart',
      param: error.field ?? null,
      message: limit ? limit.message(error.field) : `Invalid multipart form: ${error.message}.`,
    });
  }
  const bodyError = error as { status?: number };
  if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
    return new GatewayError({
      status: bodyError.status,
      type: 'invalid_request_error',
      message: (error as Error).message,
    });
  }
  return new GatewayError({
    status: 500,
    type: 'server_error',
    message: 'The gateway failed to process the request.',
    cause: error,
  });
}

/**
 * The last Express middleware: answers any error with its status and the OpenAI body
 * `{"error":{message,type,param,code}}`. Unknown errors become 500 without details (logged, never sent).
 * `secrets` (gateway and upstream keys) are redacted from every field. If the response already started (a stream), the
 * connection is closed instead.
 */
export function handleErrors(secrets: readonly string[] = []): ErrorRequestHandler {
  return (error, _req, res, _next) => answerError(res, error, secrets);
}

/**
 * What {@link handleErrors} does with an error, for work that outlives its route handler (a stream handed over without
 * keeping Express's `next`): the OpenAI error body with its status, or, once the response has started, the connection
 * closed. `secrets` are redacted from every field.
 */
export function answerError(res: Response, error: unknown, secrets: readonly string[] = []): void {
  const gatewayError = redactGatewayError(toGatewayError(error), secrets);
  if (gatewayError.status >= 500) locals(res).error = error;
  locals(res).failure = gatewayError;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(gatewayError.status).set(gatewayError.headers).json(gatewayError.toJSON());
}
