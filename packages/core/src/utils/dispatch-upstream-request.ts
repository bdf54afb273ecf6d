import type { Dispatcher } from 'undici';
import { pacedUpstreamBody } from './paced-upstream-body.js';
import { type UpstreamBodyLimits, resolveBodyLimits } from './upstream-body-limits.js';
import { getUpstreamDispatcher } from './upstream-dispatcher.js';
import type { UpstreamRequestOptions } from './upstream-request.js';

/**
 * The body limits of one upstream call, bytes: the call's own (`options.limits`) over the provider's
 * (`options.upstream.limits`) over the defaults.
 */
export function upstreamCallLimits(options: UpstreamRequestOptions): Required<UpstreamBodyLimits> {
  return resolveBodyLimits(
    options.limits || options.upstream?.limits ? { ...options.upstream?.limits, ...options.limits } : undefined,
  );
}

/**
 * Sends one upstream request with undici's `dispatch` and `handler` (the readers of whole bodies and of event streams
 * share it): origin and path from `options.url`, method (POST when there is a body, else GET), headers, body (a string,
 * bytes, or buffers sent one after the other, which undici's `dispatch` takes as an iterable, a large one in pieces:
 * `pacedUpstreamBody`), the headers and
 * body-idle timeouts (ms), through the call's dispatcher, else the provider's, else the process-wide pool. Throws
 * synchronously what `dispatch` throws (an invalid argument); everything later reaches `handler`.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=dispatcherdispatchoptions-handler
 */
export function dispatchUpstreamRequest(options: UpstreamRequestOptions, handler: Dispatcher.DispatchHandler): void {
  const url = new URL(options.url);
  const dispatcher = options.dispatcher ?? options.upstream?.dispatcher ?? getUpstreamDispatcher();
  dispatcher.dispatch(
    {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: options.headers,
      body: pacedUpstreamBody(options.body) as Dispatcher.DispatchOptions['body'],
      headersTimeout: options.timeouts?.headersMs,
      bodyTimeout: options.timeouts?.bodyIdleMs,
    },
    handler,
  );
}

/** What {@link abortLink} returns: call `started` from the handler's `onRequestStart`, `unlink` once the call is over. */
export interface AbortLink {
  started(controller: Dispatcher.DispatchController): void;
  unlink(): void;
}

/**
 * Ties a dispatched request to the call's `signal`: an abort of the signal aborts the request with its reason (at once
 * when it fired before the request started), until {@link AbortLink.unlink} removes the listener.
 */
export function abortLink(signal: AbortSignal | undefined): AbortLink {
  let controller: Dispatcher.DispatchController | undefined;
  const onAbort = () => controller?.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    started(started) {
      controller = started;
      if (signal?.aborted) started.abort(signal.reason);
    },
    unlink() {
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * The error an upstream answer of 400 or more becomes for the dispatch readers: what `options.mapError` makes of its
 * text (`bytes` as UTF-8, at most `maxErrorBytes`), or what `mapError` threw.
 */
export function mappedUpstreamError(
  options: UpstreamRequestOptions,
  status: number,
  bytes: Buffer,
  headers: Record<string, string | string[] | undefined>,
): unknown {
  try {
    return options.mapError(status, bytes.toString('utf8'), headers);
  } catch (error) {
    return error;
  }
}
