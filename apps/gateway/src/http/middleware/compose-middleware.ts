import type { RequestHandler } from 'express';

/**
 * Runs `handlers` one after the other as one Express middleware: each one's `next()` calls the next handler, the last
 * one's calls the outer `next`; `next(error)` or a handler that throws passes the error to the outer `next` and skips
 * the rest. For synchronous bookkeeping middleware (request log, in-flight tracking, metrics, tracing) that every request
 * passes through: one router layer instead of one each (Express's router matches a path, runs its own bookkeeping and
 * calls `debug` for every layer). Handlers must not return promises (their rejections are not caught).
 * @see https://expressjs.com/en/guide/writing-middleware.html
 */
export function composeMiddleware(handlers: readonly (RequestHandler | undefined)[]): RequestHandler {
  const chain = handlers.filter((handler): handler is RequestHandler => handler !== undefined);
  if (chain.length === 1) return chain[0]!;
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) {
        next(error);
        return;
      }
      const handler = chain[index++];
      if (handler === undefined) {
        next();
        return;
      }
      try {
        handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
