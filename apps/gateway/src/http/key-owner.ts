import { createHash } from 'node:crypto';
import type { Request } from 'express';

/**
 * Who owns what a request stores (stored responses): the SHA-256 hex digest of the gateway key it was made with
 * (`Authorization: Bearer <key>`, else `x-api-key`), so that only the same key sees it again. The key itself is never kept.
 */
export function keyOwner(req: Request): string {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1] ?? req.get('x-api-key') ?? '';
  return createHash('sha256').update(token).digest('hex');
}
