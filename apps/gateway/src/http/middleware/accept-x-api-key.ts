import type { RequestHandler } from 'express';

/**
 * Lets Anthropic's clients authenticate as they do at Anthropic: a gateway key in the `x-api-key` header is taken as
 * `Authorization: Bearer <key>` when the request has no `Authorization` header (which, when present, wins), so that the
 * `authenticate` middleware after it checks either. Mount it before `authenticate` on Anthropic-facing routes.
 * @see https://docs.anthropic.com/en/api/overview#authentication
 */
export function acceptXApiKey(): RequestHandler {
  return (req, _res, next) => {
    const apiKey = req.get('x-api-key');
    if (!req.get('authorization') && apiKey) req.headers.authorization = `Bearer ${apiKey}`;
    next();
  };
}
