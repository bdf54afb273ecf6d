import type { Gateway } from '@switchyard/core';
import type { RequestHandler } from 'express';

/** Rejects requests without a gateway-issued `Authorization: Bearer <key>` (401, OpenAI-shaped). */
export function authenticate(gateway: Gateway): RequestHandler {
  return (req, _res, next) => {
    gateway.authenticate(req.get('authorization'));
    next();
  };
}
