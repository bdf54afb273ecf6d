import type { Duplex } from 'node:stream';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddressKey, trustedProxies } from './client-address.js';

/**
 * Connections accepted beyond `server.max_connections` for health probes only, 32: there a connection must finish its
 * request headers within {@link PROBE_HEADERS_TIMEOUT_MS} and may only ask `GET /healthz` or `GET /readyz`.
 */
export const PROBE_CONNECTIONS = 32;
/** Time a connection in the probe room has to finish its request headers, 1,000 ms. */
export const PROBE_HEADERS_TIMEOUT_MS = 1_000;

/** The limits of {@link guardConnections}. */
export interface ConnectionFairnessOptions {
  /** Open connections shared by every client (`server.max_connections`). */
  maxConnections: number;
  /** Open connections of one client address, or IPv6 /64 (`server.max_connections_per_client`). */
  maxPerClient: number;
  /** Proxies (addresses, CIDR ranges) whose connections are not capped per client (`server.trust_proxy`). */
  trustProxy: readonly string[];
}

interface ConnectionState {
  client: string | undefined;
  /** A request is being answered on it. */
  busy: boolean;
  /** Accepted in the probe room. */
  probeOnly: boolean;
  timer?: NodeJS.Timeout;
}

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/**
 * Keeps an attacker without a key from taking every connection of `server` (issue #38): at most `maxPerClient` open
 * connections per client address (trusted proxies excepted); a client at its cap that opens another makes room by
 * closing its own oldest connection that is not answering a request (one still sending its headers, or idle between
 * requests), or is refused when all of them are. Once `maxConnections` are open, a new connection goes to a room of
 * {@link PROBE_CONNECTIONS} for health probes (the oldest idle one there is closed to make room). The socket address is
 * all there is before the headers arrive, so behind a proxy every client shares the proxy's address: list it in
 * `trustProxy` and bound its clients at the proxy.
 * With `upgrade`, the server's `upgrade` events (WebSockets) go to it through the same caps: an upgraded connection
 * is busy until it closes, and an upgrade on a probe-room connection gets 503 `server_busy`.
 * @returns the request listener to use in place of `handler`: it answers 503 `server_busy` with `connection: close` to
 * a request other than a probe on a probe-room connection, and marks connections busy while they answer.
 */
export function guardConnections(
  server: Server,
  options: ConnectionFairnessOptions,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const isTrusted = trustedProxies(options.trustProxy);
  const states = new WeakMap<Socket, ConnectionState>();
  const byClient = new Map<string, Set<Socket>>();
  const probeRoom = new Set<Socket>();
  let open = 0;

  /** Closes the oldest connection of `sockets` that answers no request; false when every one is busy. */
  const evictIdle = (sockets: Set<Socket>): boolean => {
    for (const socket of sockets) {
      if (states.get(socket)?.busy) continue;
      forget(socket);
      socket.destroy();
      return true;
    }
    return false;
  };

  const forget = (socket: Socket) => {
    const state = states.get(socket);
    if (!state) return;
    states.delete(socket);
    open--;
    clearTimeout(state.timer);
    probeRoom.delete(socket);
    if (state.client === undefined) return;
    const sockets = byClient.get(state.client);
    sockets?.delete(socket);
    if (sockets?.size === 0) byClient.delete(state.client);
  };

  server.maxConnections = options.maxConnections + PROBE_CONNECTIONS + 1;
  server.on('connection', (socket: Socket) => {
    const client = isTrusted(socket.remoteAddress) ? undefined : clientAddressKey(socket.remoteAddress);
    const sockets = client === undefined ? undefined : (byClient.get(client) ?? new Set<Socket>());
    if (sockets && sockets.size >= options.maxPerClient && !evictIdle(sockets)) return void socket.destroy();
    const probeOnly = open >= options.maxConnections;
    if (probeOnly && probeRoom.size >= PROBE_CONNECTIONS && !evictIdle(probeRoom)) return void socket.destroy();
    const state: ConnectionState = { client, busy: false, probeOnly };
    states.set(socket, state);
    open++;
    if (client !== undefined && sockets) byClient.set(client, sockets.add(socket));
    if (probeOnly) {
      probeRoom.add(socket);
      state.timer = setTimeout(() => !state.busy && socket.destroy(), PROBE_HEADERS_TIMEOUT_MS).unref();
    }
    socket.once('close', () => forget(socket));
  });

  if (upgrade) {
    // An upgraded connection (a WebSocket session) is busy for its whole life: never closed to make room. On a
    // probe-room connection it is refused like any request that is not a probe.
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const state = states.get(req.socket);
      if (state) {
        state.busy = true;
        clearTimeout(state.timer);
        if (state.probeOnly) {
          const body = JSON.stringify({
            error: {
              message: 'The gateway has no free connection; retry shortly.',
              type: 'server_error',
              code: 'server_busy',
            },
          });
          socket.end(
            `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nretry-after: 1\r\nconnection: close\r\n\r\n${body}`,
          );
          return;
        }
      }
      upgrade(req, socket, head);
    });
  }

  return (req, res) => {
    const state = states.get(req.socket);
    if (state) {
      state.busy = true;
      clearTimeout(state.timer);
      res.once('close', () => (state.busy = false));
      if (state.probeOnly && !(req.method === 'GET' && PROBE_PATHS.has((req.url ?? '').split('?')[0] ?? ''))) {
        res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' });
        res.end(
          JSON.stringify({
            error: {
              message: 'The gateway has no free connection; retry shortly.',
              type: 'server_error',
              code: 'server_busy',
            },
          }),
        );
        return;
      }
    }
    handler(req, res);
  };
}
