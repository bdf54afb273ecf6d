import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { RequestLocals } from '../request-locals.js';
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
    // One object with every field the gateway sets, in place of Express's `Object.create(null)`, a dictionary-mode
    // object (about 400 bytes for a held stream's fields, against about 100); what an outer app put there is kept.
    const requestLocals: RequestLocals = {
      requestId,
      signal: controller.signal,
      cancel: (reason: unknown) => controller.abort(reason),
      model: undefined,
      provider: undefined,
      caller: undefined,
      error: undefined,
      failure: undefined,
      result: undefined,
      closeHooks,
      resultAt: undefined,
    };
    const outer: Record<string, unknown> = res.locals;
    for (const key in outer)
      if (!Object.hasOwn(requestLocals, key)) (requestLocals as unknown as typeof outer)[key] = outer[key];
    res.locals = requestLocals as unknown as typeof outer;
    res.setHeader('x-request-id', requestId);
    runInRequestScope(requestId, next);
  };
}
