import { toJsonBody } from '@switchyard/core';
import type { Response } from 'express';

/**
 * Sends a JSON answer with status 200: `content-type: application/json; charset=utf-8` and one `JSON.stringify`, or
 * for an upstream answer the gateway did not change, the upstream's own bytes (`toJsonBody`: no serialisation and no
 * UTF-8 encoding at all).
 * Cheaper than `res.json()`, which also runs Express's content negotiation helpers on every call.
 */
export function sendJson(res: Response, body: unknown, status = 200): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(toJsonBody(body));
}
