import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { type MockRealtimeEvent, MockRealtimeScript, type MockRealtimeScriptOptions } from './mock-realtime-script.js';

/** One session the mock accepted. */
export interface MockRealtimeConnection {
  /** The upgrade's path and query, e.g. `/v1/realtime?model=gpt-realtime`. */
  url: string;
  /** The handshake's headers (lower-case names): what the gateway sent upstream. */
  headers: IncomingHttpHeaders;
  /** The client events received, parsed, in order. */
  received: MockRealtimeEvent[];
  socket: WebSocket;
  /** Sends one server event. */
  send(event: MockRealtimeEvent): void;
  /** Drops the connection without a close frame (the gateway sees code 1006). */
  drop(): void;
}

/** Options of {@link startMockRealtimeUpstream}. */
export interface MockRealtimeUpstreamOptions extends MockRealtimeScriptOptions {
  /** Refuse every upgrade with this HTTP status (and body). */
  refuse?: { status: number; body?: string };
  /** Stop reading each session's messages once it is open (a slow upstream, for back-pressure tests). */
  paused?: boolean;
}

/** A running mock Realtime upstream. */
export interface MockRealtimeUpstream {
  /** `http://127.0.0.1:<port>/v1`, the OpenAI adapter's `base_url` (the Azure adapter takes `http://127.0.0.1:<port>`). */
  baseURL: string;
  port: number;
  /** Every accepted session, in order. */
  connections: MockRealtimeConnection[];
  /** Upgrades refused (with `refuse`). */
  refused: number;
  /** Resolves once `count` sessions have been accepted. */
  waitForConnections(count: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A mock of OpenAI's Realtime WebSocket on loopback, speaking the GA events scripted by {@link MockRealtimeScript}:
 * sessions at `/v1/realtime?model=<id>` (OpenAI) and `/openai/realtime?api-version=...&deployment=<name>` (Azure).
 * It records each handshake's URL and headers and every client event.
 * @see https://platform.openai.com/docs/guides/realtime-websocket
 */
export async function startMockRealtimeUpstream(
  options: MockRealtimeUpstreamOptions = {},
): Promise<MockRealtimeUpstream> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
  const connections: MockRealtimeConnection[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const state = { refused: 0 };
  server.on('upgrade', (request, socket, head) => {
    if (options.refuse) {
      state.refused++;
      const body =
        options.refuse.body ??
        JSON.stringify({
          error: { message: 'refused by the mock', type: 'invalid_request_error', code: null, param: null },
        });
      socket.end(
        `HTTP/1.1 ${options.refuse.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const url = new URL(request.url ?? '/', 'http://mock');
    const model = url.searchParams.get('model') ?? url.searchParams.get('deployment') ?? 'unknown';
    wss.handleUpgrade(request, socket, head, (socket) => {
      let events = 0;
      const script = new MockRealtimeScript(model, options);
      const send = (event: MockRealtimeEvent) => {
        if (socket.readyState === WebSocket.OPEN)
          socket.send(JSON.stringify({ event_id: `event_mock_${++events}`, ...event }));
      };
      const connection: MockRealtimeConnection = {
        url: request.url ?? '/',
        headers: request.headers,
        received: [],
        socket,
        send,
        drop: () => socket.terminate(),
      };
      connections.push(connection);
      for (const waiter of [...waiters]) if (connections.length >= waiter.count) waiter.resolve();
      socket.on('error', () => {});
      socket.on('message', (data) => {
        let event: MockRealtimeEvent;
        try {
          event = JSON.parse(String(data)) as MockRealtimeEvent;
        } catch {
          send({
            type: 'error',
            error: {
              type: 'invalid_request_error',
              code: 'invalid_json',
              message: 'Invalid JSON.',
              param: null,
              event_id: null,
            },
          });
          return;
        }
        connection.received.push(event);
        for (const reply of script.handle(event)) send(reply);
      });
      for (const event of script.opened()) send(event);
      if (options.paused) socket.pause();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    connections,
    get refused() {
      return state.refused;
    },
    waitForConnections: (count) =>
      connections.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      for (const connection of connections) connection.socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
