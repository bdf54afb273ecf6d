import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import WebSocket from 'ws';

/** A server event as the clients see it. */
export type ServerEvent = { type: string; [field: string]: unknown };

/** A realtime session opened with the official `openai` SDK, with what it received. */
export interface SdkSession {
  rt: OpenAIRealtimeWS;
  /** Every server event received, in order (errors included). */
  events: ServerEvent[];
  /** Resolves with the first event of `type` (already received or to come) that `match` accepts. */
  next(type: string, match?: (event: ServerEvent) => boolean): Promise<ServerEvent>;
  /** Resolves when the socket has closed, with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves when the socket is open. */
  opened: Promise<void>;
  /** Sends one client event. */
  send(event: Record<string, unknown>): void;
}

/**
 * Opens a session of `model` through the official SDK's `OpenAIRealtimeWS` against the gateway behind a TLS
 * terminator (`https://127.0.0.1:<tlsPort>/v1`, the SDK only speaks `wss:`), trusting its certificate `ca`.
 */
export function openSdkSession(tls: { port: number; ca: string }, key: string, model: string): SdkSession {
  const client = new OpenAI({ apiKey: key, baseURL: `https://127.0.0.1:${tls.port}/v1`, maxRetries: 0 });
  const rt = new OpenAIRealtimeWS({ model, options: { ca: tls.ca } }, client);
  const events: ServerEvent[] = [];
  const waiters: { type: string; match: (event: ServerEvent) => boolean; resolve: (event: ServerEvent) => void }[] = [];
  rt.on('event', (event) => {
    const received = event as unknown as ServerEvent;
    events.push(received);
    for (const waiter of [...waiters]) {
      if (waiter.type === received.type && waiter.match(received)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(received);
      }
    }
  });
  rt.on('error', () => {}); // asserted through `events`
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    rt.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    rt.socket.once('open', () => resolve());
    rt.socket.once('error', reject);
  });
  return {
    rt,
    events,
    closed,
    opened,
    send: (event) => rt.send(event as never),
    next: (type, match = () => true) => {
      const found = events.find((e) => e.type === type && match(e));
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ type, match, resolve }));
    },
  };
}

/** An upgrade the gateway refused: its HTTP status, headers and body. */
export interface RefusedUpgrade {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error: { message: string; type: string; code: string | null; param: string | null } };
}

/** The events a raw socket received (see {@link collectEvents}). */
export type CollectedEvents = ReturnType<typeof collectEvents>;

/**
 * Opens a plain `ws` WebSocket to `url` (`ws://…`) with `headers` and `protocols`; resolves with the open socket and
 * its events (collected from the start), or with the HTTP answer when the server refused the upgrade.
 */
export function rawUpgrade(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[] } = {},
): Promise<{ socket: WebSocket; received: CollectedEvents } | { refused: RefusedUpgrade }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
    const received = collectEvents(socket);
    socket.once('open', () => resolve({ socket, received }));
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          refused: {
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          },
        }),
      );
    });
    socket.once('error', reject);
  });
}

/** Collects a raw socket's events (JSON parsed) and resolves `next(type)` as {@link SdkSession.next} does. */
export function collectEvents(socket: WebSocket): {
  events: ServerEvent[];
  next(type: string): Promise<ServerEvent>;
  closed: Promise<{ code: number; reason: string }>;
} {
  const events: ServerEvent[] = [];
  const waiters: { type: string; resolve: (event: ServerEvent) => void }[] = [];
  socket.on('message', (data) => {
    const event = JSON.parse(String(data)) as ServerEvent;
    events.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.type === event.type) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return {
    events,
    closed,
    next: (type) => {
      const found = events.find((e) => e.type === type);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ type, resolve }));
    },
  };
}

/** The client event that adds a user message of one `input_text` part to the conversation. */
export function userTextItem(text: string): Record<string, unknown> {
  return {
    type: 'conversation.item.create',
    item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
  };
}

/** Waits for the `index`-th `response.done` of `session` (0: the first), received or to come. */
export function nthResponseDone(session: SdkSession, index: number): Promise<ServerEvent> {
  return session.next(
    'response.done',
    (e) => session.events.filter((x) => x.type === 'response.done').indexOf(e) === index,
  );
}

/** Closes `session` from the client side and waits until the socket has closed; resolves with the close code. */
export async function endSession(session: SdkSession): Promise<{ code: number; reason: string }> {
  session.rt.close();
  return session.closed;
}

/**
 * A function call round trip on a text session: declares `tool` (`session.update`), asks for the weather in Paris,
 * waits for the call's arguments and its `response.done`, answers with `{"temperature_c":21}` and waits for the
 * second `response.done`. Resolves with the `response.function_call_arguments.done` event.
 * Events: https://platform.openai.com/docs/api-reference/realtime-client-events
 */
export async function weatherToolRoundTrip(session: SdkSession, tool: Record<string, unknown>): Promise<ServerEvent> {
  session.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], tools: [tool] } });
  await session.next('session.updated');
  session.send(userTextItem('What is the weather in Paris?'));
  session.send({ type: 'response.create' });
  const call = await session.next('response.function_call_arguments.done');
  await session.next('response.done');
  session.send({
    type: 'conversation.item.create',
    item: { type: 'function_call_output', call_id: call.call_id, output: '{"temperature_c":21}' },
  });
  session.send({ type: 'response.create' });
  await nthResponseDone(session, 1);
  return call;
}
