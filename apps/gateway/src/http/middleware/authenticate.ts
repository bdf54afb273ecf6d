import type { Gateway } from '@switchyard/core';
import type { RequestHandler } from 'express';
import { locals } from '../request-locals.js';

/**
 * Rejects requests without a gateway-issued `Authorization: Bearer <key>` (401, OpenAI-shaped), through
 * `gateway.authenticate()`: with accounts, virtual keys (`sk-sy-…`) are accepted too (and refusals are booked), and
 * the caller (`res.locals.caller`) is passed to every gateway call for limits and the ledger. A virtual key this
 * replica has not heard of yet is looked up in the store first (the answer is then a promise; look-ups are limited per
 * client address, `req.ip`).
 */
export function authenticate(gateway: Gateway): RequestHandler {
  return (req, res, next) => {
    const caller = gateway.authenticate(req.get('authorization'), {
      requestId: locals(res).requestId,
      clientAddress: req.ip,
    });
    if (!(caller instanceof Promise)) {
      locals(res).caller = caller;
      return next();
    }
    caller.then((found) => {
      locals(res).caller = found;
      next();
    }, next);
  };
}
