import type { Request } from 'express';

/**
 * Lets a response stream run on after its route handler has returned, so that a stream held open for minutes (an
 * agent's, or one waiting on a slow model) keeps neither the handler's state nor Express's routing state: the
 * router's `next` closures, which Express also keeps as `req.next`, with the parameters and the layer stacks of every
 * router the request passed (about 2.8 KB per stream, see docs/performance-log.md, session 16). The handler must
 * not await `stream`; a rejection goes to `onError` (the handler's error middleware's own answer, e.g. `answerError`),
 * as Express would have passed it to the error middleware.
 */
export function handOverStream(req: Request, stream: Promise<void>, onError: (error: unknown) => void): void {
  stream.catch(onError);
  req.next = undefined;
}
