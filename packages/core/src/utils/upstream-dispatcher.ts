import { Agent, type Dispatcher } from 'undici';

/** Timeouts of upstream HTTP calls, in milliseconds. */
export interface UpstreamTimeouts {
  /** TCP + TLS connect. Default 10,000 ms. */
  connectMs?: number;
  /** From request sent to response headers (time to first byte). Default 600,000 ms. */
  headersMs?: number;
  /** Longest gap between two body chunks (stream idle). Default 300,000 ms. */
  bodyIdleMs?: number;
}

let shared: Dispatcher | undefined;
let connectTimeoutMs = 10_000;

/**
 * Sets the TCP + TLS connect timeout (ms) of the shared upstream pool; takes effect for connections opened after
 * the call (the pool is recreated; open connections of the old one finish their requests). A connect timeout
 * surfaces as 504 `upstream_timeout`.
 */
export function setUpstreamConnectTimeout(ms: number): void {
  if (ms === connectTimeoutMs) return;
  connectTimeoutMs = ms;
  const previous = shared;
  shared = undefined;
  void previous?.close().catch(() => {});
}

/**
 * The process-wide undici Agent used for upstream calls: keep-alive connection pools per origin
 * (keep-alive 60 s), no connection cap. Created lazily; tests and embedders may pass their own dispatcher instead.
 * @see https://undici.nodejs.org/#/docs/api/Agent
 */
export function getUpstreamDispatcher(): Dispatcher {
  shared ??= createUpstreamAgent(connectTimeoutMs);
  return shared;
}

/**
 * A new undici Agent with the upstream pool's settings: keep-alive 60 s (at most 600 s when a server asks for more),
 * `connectTimeoutMs` for TCP + TLS connect, 600,000 ms to the response headers and 300,000 ms between body chunks
 * (the per-call `UpstreamTimeouts` narrow these). The shared pool and each gateway's own pool are built by it.
 * @see https://undici.nodejs.org/#/docs/api/Agent
 */
export function createUpstreamAgent(connectTimeoutMs = 10_000): Agent {
  return new Agent({
    keepAliveTimeout: 60_000,
    keepAliveMaxTimeout: 600_000,
    connect: { timeout: connectTimeoutMs },
    headersTimeout: 600_000,
    bodyTimeout: 300_000,
  });
}
