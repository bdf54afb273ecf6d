import type { Gateway } from '@switchyard/core';
import type { RequestHandler } from 'express';
import { locals } from '../request-locals.js';

/**
 * Rejects requests without a gateway-issued `Authorization: Bearer <key>` (401, OpenAI-shaped), through
 * `gateway.authenticate()`: with accounts, virtual keys (`sk-sy-…`) are accepted too (and refusals are booked), and
 * the caller (`res.locals.caller`) is passed to every gateway call for limits and the ledger.
 */
export function authenticate(gateway: Gateway): RequestHandler {
  return (req, res, next) => {
    locals(res).caller = gateway.authenticate(req.get('authorization'), { requestId: locals(res).requestId });
    next();
  };
}
