import type { Accounts } from '@switchyard/accounts';
import type { Gateway } from '@switchyard/core';
import type { RequestHandler } from 'express';

/**
 * Rejects requests without a gateway-issued `Authorization: Bearer <key>` (401, OpenAI-shaped). With accounts, virtual
 * keys (`sk-sy-…`) are accepted too and the caller (`res.locals.principal`) is kept for limits and the ledger.
 */
export function authenticate(gateway: Gateway, accounts?: Accounts): RequestHandler {
  return (req, res, next) => {
    if (accounts) res.locals.principal = accounts.authenticate(req.get('authorization'));
    else gateway.authenticate(req.get('authorization'));
    next();
  };
}
