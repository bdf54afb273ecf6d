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

/**
 * True when this process's AsyncLocalStorage is built on async context frames (Node >= 24 by default, Node 22 with
 * `--experimental-async-context-frame`). The older implementation (Node 22's default) installs a promise hook that
 * runs for every promise of the process once a store is entered: about 15 % of the CPU time of a proxied chat call
 * (`pnpm bench`, issue #14). Requests therefore enter {@link requestScope} only when it is cheap; without it, an
 * unhandled rejection is still logged, without its request id.
 * @see https://nodejs.org/api/cli.html#--experimental-async-context-frame
 */
export const requestScopeIsCheap: boolean = asyncContextFramesEnabled(
  process.versions.node,
  process.execArgv,
  process.env.NODE_OPTIONS,
);

/**
 * Whether Node `version` started with `execArgv` and `NODE_OPTIONS` runs AsyncLocalStorage on async context frames:
 * on by default from Node 24 (off with `--no-async-context-frame`), opt-in on Node 22.7+ and 23.
 */
export function asyncContextFramesEnabled(version: string, execArgv: readonly string[], nodeOptions = ''): boolean {
  const flags = [...execArgv, ...nodeOptions.split(/\s+/)];
  const major = Number(version.split('.')[0]);
  if (major >= 24)
    return !flags.includes('--no-async-context-frame') && !flags.includes('--no-experimental-async-context-frame');
  return flags.includes('--experimental-async-context-frame');
}

/** Runs `next` inside {@link requestScope} for `requestId` when that is cheap ({@link requestScopeIsCheap}), else directly. */
export function runInRequestScope(requestId: string, next: () => void): void {
  if (requestScopeIsCheap) requestScope.run(requestId, next);
  else next();
}
