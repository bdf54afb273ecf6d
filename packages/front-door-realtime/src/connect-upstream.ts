import {
  GatewayError,
  type RealtimeUpstream,
  redactSecrets,
  upstreamCredentialsError,
  upstreamTimeoutError,
  upstreamUnreachableError,
} from '@switchyard/core';
import WebSocket from 'ws';

/** Options of {@link connectUpstream}. */
export interface ConnectUpstreamOptions {
  provider: string;
  /** Largest upstream message, bytes (larger ones close the upstream with 1009). */
  maxPayload: number;
  /** Longest wait for the upstream's handshake, ms. */
  timeoutMs: number;
  /** Aborted when the client went away: the upstream socket is closed at once. */
  signal: AbortSignal;
}

/** The first bytes of an upstream's refusal read for its message (the rest is dropped). */
const MAX_REFUSAL_BYTES = 16 * 1024;

/** An open upstream socket, paused, with the messages that arrived before the session took it over. */
export interface ConnectedUpstream {
  socket: WebSocket;
  /** Messages received between the handshake and {@link takeOver} (the upstream's first events, e.g. `session.created`). */
  early: Buffer[];
  /** Stops queuing early messages: call it once the session listens to the socket, then replay {@link early}. */
  takeOver(): void;
}

/**
 * Opens a session's upstream WebSocket (`ws`, no compression) and resolves once it is open, paused (see
 * {@link ConnectedUpstream}). Rejects with a
 * `GatewayError`: the upstream refused the upgrade with 401/403 -> 502 `upstream_auth_failed`; 429 -> 429 (with its
 * `retry-after`); any other status -> 502 `upstream_error` naming it (with the start of its body, secrets redacted);
 * unreachable or reset -> 502; no handshake within `timeoutMs` -> 504; the abort reason when `signal` aborts.
 */
export function connectUpstream(
  upstream: RealtimeUpstream,
  options: ConnectUpstreamOptions,
): Promise<ConnectedUpstream> {
  const { provider, signal } = options;
  return new Promise<ConnectedUpstream>((resolve, reject) => {
    const socket = new WebSocket(upstream.url, upstream.protocols ?? [], {
      headers: upstream.headers,
      perMessageDeflate: false,
      maxPayload: options.maxPayload,
      handshakeTimeout: options.timeoutMs,
      followRedirects: false,
    });
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    if (signal.aborted) return fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('open', () => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners('unexpected-response');
      // The upstream may speak first (`session.created`), before the client's upgrade is done: queued, and the socket
      // paused so that the queue stays small.
      socket.pause();
      const early: Buffer[] = [];
      const queue = (data: Buffer) => early.push(data);
      socket.on('message', queue);
      resolve({ socket, early, takeOver: () => socket.off('message', queue) });
    });
    socket.once('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 502;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < MAX_REFUSAL_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      const done = () => {
        const text = redactSecrets(Buffer.concat(chunks).toString('utf8').slice(0, 200), upstream.secrets ?? []);
        if (status === 401 || status === 403) return fail(upstreamCredentialsError(provider, status, text));
        if (status === 429) {
          const retryAfter = response.headers['retry-after'];
          return fail(
            new GatewayError({
              status: 429,
              type: 'requests',
              code: 'rate_limit_exceeded',
              message: `The upstream ${provider} is rate limiting realtime sessions: ${text || 'no detail'}`,
              headers: typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {},
            }),
          );
        }
        fail(
          new GatewayError({
            status: 502,
            type: 'server_error',
            code: 'upstream_error',
            message: `The upstream ${provider} refused the realtime session with HTTP ${status}: ${text || 'no detail'}`,
          }),
        );
      };
      response.once('end', done);
      response.once('error', done);
      response.once('close', done);
    });
    socket.once('error', (error: Error) => {
      if (/timed out/i.test(error.message)) fail(upstreamTimeoutError(provider, error));
      else fail(upstreamUnreachableError(provider, error));
    });
  });
}
