import type { Request, Response } from 'express';

/**
 * Lets a response stream run on after its route handler has returned, so that a stream held open for minutes (an
 * agent's, or one waiting on a slow model) keeps neither the handler's state nor Express's routing state: the
 * router's `next` closures, which Express also keeps as `req.next`, with the parameters and the layer stacks of every
 * router the request passed (about 2.8 KB per stream, see docs/performance-log.md, session 16). The handler must
 * not await `stream`; a rejection goes to `onError` (the handler's error middleware's own answer, e.g. `answerError`),
 * as Express would have passed it to the error middleware. Once the stream's first events are out, its status line
 * and headers are flattened (see {@link flattenSentHeader}).
 */
export function handOverStream(req: Request, stream: Promise<void>, onError: (error: unknown) => void): void {
  stream.catch(onError);
  req.next = undefined;
  const res = req.res;
  if (res) setImmediate(flattenSentHeader, res);
}

/**
 * Node builds a response's status line and headers (`res._header`, kept as long as the response lives) by
 * concatenating each name, `: `, value and line end: a tree of about 50 V8 cons strings (1.5 KB) for a stream's 9
 * headers. Converting the text to a number (which fails, harmlessly) makes V8 flatten it in place into one string of
 * about 400 bytes, and the tree is garbage. Does nothing before the headers have been built.
 */
export function flattenSentHeader(res: Response): void {
  const header: unknown = (res as { _header?: unknown })._header;
  if (typeof header === 'string') Number(header);
}
