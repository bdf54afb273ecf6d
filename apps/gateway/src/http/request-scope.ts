import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request id of the HTTP request whose code is running, carried across `await`s (AsyncLocalStorage), so that a
 * failure nobody awaited can still be logged with the request that caused it.
 * @see https://nodejs.org/api/async_context.html#class-asynclocalstorage
 */
export const requestScope = new AsyncLocalStorage<string>();

/** The id of the request being handled (its `x-request-id`), or undefined outside a request. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore();
}
