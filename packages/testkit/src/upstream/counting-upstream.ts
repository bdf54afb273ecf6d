import { type UpstreamBodyLimits, type UpstreamCallSettings, getUpstreamDispatcher } from '@switchyard/core';

/** What {@link countingUpstream} returns. */
export interface CountingUpstream {
  /** Pass as `AdapterCallContext.upstream`. */
  upstream: UpstreamCallSettings;
  /** Upstream requests sent through `upstream.dispatcher` so far. */
  readonly dispatched: number;
}

/**
 * Upstream call settings for adapter tests: the given body `limits` (bytes) and a dispatcher that counts the requests
 * sent through it (the process-wide pool composed with a counting interceptor), so a test can prove an adapter uses
 * the gateway's dispatcher and limits (`AdapterCallContext.upstream`) rather than its own.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=dispatchercomposeinterceptors-interceptor
 */
export function countingUpstream(limits?: UpstreamBodyLimits): CountingUpstream {
  let dispatched = 0;
  const dispatcher = getUpstreamDispatcher().compose((dispatch) => (options, handler) => {
    dispatched++;
    return dispatch(options, handler);
  });
  return {
    upstream: { dispatcher, limits },
    get dispatched() {
      return dispatched;
    },
  };
}
