import { GatewayError } from '@switchyard/core';
import express, { type RequestHandler } from 'express';

/**
 * Parses a JSON body (body-parser through `express.json`, limit in bytes or a size string such as `20mb`).
 * A request with another content type gets 415; bad JSON 400 and an oversized body 413 come from the error handler.
 */
export function parseJsonBody(limit: number | string): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (!req.is('application/json')) {
      throw new GatewayError({
        status: 415,
        type: 'invalid_request_error',
        code: 'unsupported_media_type',
        message: `Unsupported Content-Type '${req.get('content-type') ?? '(none)'}': send the body as application/json.`,
      });
    }
    next();
  };
  return [requireJson, express.json({ limit, type: 'application/json', strict: false })];
}
