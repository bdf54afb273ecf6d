import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MockReply, MockRoute, RecordedRequest } from './mock-reply.js';

/** Options of {@link startMockUpstream}. */
export interface MockUpstreamOptions {
  /**
   * Routes by `"<METHOD> <path>"`, e.g. `"POST /v1/chat/completions"`. `*` in the path matches any characters
   * (`"POST /v1beta/models/*:streamGenerateContent"`). The query string is not part of the match.
   */
  routes?: Record<string, MockRoute>;
  /** Keep every request in `requests` (default true). Benchmarks turn it off so memory stays flat. */
  record?: boolean;
}

/** A running mock upstream on 127.0.0.1. */
export interface MockUpstream {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far (shows whether clients reuse keep-alive connections). */
  readonly connections: number;
  /** TCP connections open right now (idle keep-alive ones included). */
  readonly openConnections: number;
  /** Sets or replaces a route; its call count starts at 0. */
  route(key: string, route: MockRoute): void;
  /** Requests whose `"<METHOD> <path>"` matches `key` (same `*` rules as routes). */
  requestsTo(key: string): RecordedRequest[];
  /** Forgets recorded requests and route call counts. */
  clear(): void;
  /** Closes the server and every open connection. */
  close(): Promise<void>;
}

interface CompiledRoute {
  key: string;
  pattern: RegExp;
  route: MockRoute;
  calls: number;
}

function compile(key: string): RegExp {
  const escaped = key.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function record(req: IncomingMessage, body: Buffer): RecordedRequest {
  const url = new URL(req.url ?? '/', 'http://mock');
  const bodyText = body.toString('utf8');
  let json: unknown;
  try {
    json = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    json = undefined;
  }
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body,
    bodyText,
    json,
    closedByClient: false,
  };
}

function pickReply(entry: CompiledRoute, request: RecordedRequest): MockReply | Promise<MockReply> {
  const call = entry.calls++;
  const { route } = entry;
  if (typeof route === 'function') return route(request, call);
  if (Array.isArray(route)) return route[Math.min(call, route.length - 1)] as MockReply;
  return route as MockReply;
}

async function send(reply: MockReply, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
  if (reply.delayMs) await sleep(reply.delayMs, undefined, { signal }).catch(() => {});
  if (signal.aborted) return;
  if (reply.reset) {
    req.socket.destroy();
    return;
  }
  if (reply.hang) return;
  const headers: Record<string, string> = { ...reply.headers };
  const hasType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
  if (reply.chunks) {
    if (!hasType) headers['content-type'] = 'text/event-stream';
    res.writeHead(reply.status ?? 200, headers);
    res.flushHeaders();
    let written = 0;
    for (const chunk of reply.chunks) {
      if (reply.beforeChunk) await reply.beforeChunk(written);
      if (reply.resetAfterChunks !== undefined && written >= reply.resetAfterChunks) {
        req.socket.destroy();
        return;
      }
      if (written > 0 && reply.chunkDelayMs) await sleep(reply.chunkDelayMs, undefined, { signal }).catch(() => {});
      if (signal.aborted) return;
      await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
      written++;
    }
    if (reply.resetAfterChunks !== undefined && written >= reply.resetAfterChunks) {
      req.socket.destroy();
      return;
    }
    res.end();
    return;
  }
  const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? '');
  if (!hasType && reply.json !== undefined) headers['content-type'] = 'application/json';
  res.writeHead(reply.status ?? 200, headers);
  res.end(body);
}

/**
 * Starts an HTTP server on 127.0.0.1 with an ephemeral port that answers routes with recorded replies, records every
 * request, and injects faults (status, delay, reset, hang). Unknown routes get 404 with an OpenAI-shaped error.
 * Uses HTTP/1.1 keep-alive like real upstreams.
 */
export async function startMockUpstream(options: MockUpstreamOptions = {}): Promise<MockUpstream> {
  const routes: CompiledRoute[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;

  const setRoute = (key: string, route: MockRoute) => {
    const existing = routes.findIndex((r) => r.key === key);
    const entry = { key, pattern: compile(key), route, calls: 0 };
    if (existing >= 0) routes[existing] = entry;
    else routes.push(entry);
  };
  for (const [key, route] of Object.entries(options.routes ?? {})) setRoute(key, route);

  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) {
        controller.abort();
      }
    });
    void (async () => {
      const recorded = record(req, await readBody(req));
      if (options.record !== false) requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) recorded.closedByClient = true;
      });
      const key = `${recorded.method} ${recorded.path}`;
      const entry = routes.find((r) => r.pattern.test(key));
      if (!entry) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: {
              message: `mock upstream: no route for ${key}`,
              type: 'invalid_request_error',
              param: null,
              code: null,
            },
          }),
        );
        return;
      }
      await send(await pickReply(entry, recorded), req, res, controller.signal);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `mock upstream failed: ${String(error)}`, type: 'server_error', param: null, code: null },
        }),
      );
    });
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    get openConnections() {
      return sockets.size;
    },
    route: setRoute,
    requestsTo(key) {
      const pattern = compile(key);
      return requests.filter((r) => pattern.test(`${r.method} ${r.path}`));
    },
    clear() {
      requests.length = 0;
      for (const r of routes) r.calls = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
