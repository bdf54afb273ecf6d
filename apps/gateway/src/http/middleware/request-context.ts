import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { locals } from '../request-locals.js';
import { runInRequestScope } from '../request-scope.js';

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives every request an id (the client's `x-request-id` when it is sane, else a UUID, echoed in the response) and
 * an AbortSignal that fires when the client goes away before the response is complete, so upstream calls stop. The rest of the request runs in
 * `requestScope` where that is cheap (see `requestScopeIsCheap`), so background failures can name it.
 */
export function requestContext(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const controller = new AbortController();
    const closeHooks: (() => void)[] = [];
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('The client closed the connection.'));
      for (const hook of closeHooks) hook();
    });
    Object.assign(locals(res), {
      requestId,
      signal: controller.signal,
      cancel: (reason: unknown) => controller.abort(reason),
      closeHooks,
    });
    res.setHeader('x-request-id', requestId);
    runInRequestScope(requestId, next);
  };
}
