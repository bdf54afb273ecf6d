import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Gateway, GatewayError, type RealtimeCall } from '@switchyard/core';
import { type WebSocket, WebSocketServer } from 'ws';
import { readClientCredentials } from './client-credentials.js';
import { type ConnectedUpstream, connectUpstream } from './connect-upstream.js';
import { type RealtimeLimits, type RealtimeOptions, realtimeLimits } from './realtime-options.js';
import { RealtimeSession } from './realtime-session.js';
import { refuseUpgrade } from './refuse-upgrade.js';

/** A request id a client may choose (`x-request-id`): printable ASCII without spaces, at most 128 characters. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

const notFound = (path: string) =>
  new GatewayError({
    status: 404,
    type: 'invalid_request_error',
    code: 'not_found',
    message: `Invalid URL (GET ${path.slice(0, 200)}): realtime sessions are opened at /v1/realtime.`,
  });
const shuttingDown = () =>
  new GatewayError({
    status: 503,
    type: 'server_error',
    code: 'server_shutting_down',
    message: 'The gateway is shutting down; retry on another replica.',
  });

/**
 * The Realtime front door, `GET /v1/realtime?model=<id>` upgraded to a WebSocket, for any `node:http` server: call
 * {@link handleUpgrade} from the server's `upgrade` event. Each upgrade is authenticated (`Authorization: Bearer`, or
 * the `openai-insecure-api-key.<key>` subprotocol), admitted (`Gateway.openRealtime`: allow-list, rpm, a concurrency
 * slot for the session's life, the budget), connected to its upstream, and only then switched to a WebSocket; every
 * refusal is an HTTP error in OpenAI's shape (401, 403, 404, 429, 502, 503, 504). Sessions are relayed by
 * {@link RealtimeSession}; one timer checks them all every `checkIntervalMs`.
 * @example
 * ```ts
 * const realtime = new RealtimeServer(gateway, { maxSessionMs: 1_800_000 });
 * server.on('upgrade', (req, socket, head) => realtime.handleUpgrade(req, socket, head));
 * ```
 * @see https://platform.openai.com/docs/guides/realtime-websocket
 */
export class RealtimeServer {
  readonly #gateway: Gateway;
  readonly #options: RealtimeOptions;
  readonly #limits: RealtimeLimits;
  readonly #secrets: readonly string[];
  readonly #wss: WebSocketServer;
  readonly #sessions = new Set<RealtimeSession>();
  /** The periodic check of open sessions (idle and length limits, revocation); runs only while sessions are open. */
  #timer: NodeJS.Timeout | undefined;
  #opening = 0;
  #shuttingDown = false;

  constructor(gateway: Gateway, options: RealtimeOptions = {}) {
    this.#gateway = gateway;
    this.#options = options;
    this.#limits = realtimeLimits(options);
    this.#secrets = options.secrets ?? [];
    this.#wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      // Messages up to twice the limit are read and refused with an error event; larger ones close the session (1009).
      maxPayload: this.#limits.maxMessageBytes * 2,
      clientTracking: false,
      handleProtocols: (offered) => (offered.has('realtime') ? 'realtime' : false),
    });
  }

  /** Starts the periodic session check with the first open session. */
  #startChecks(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      const now = Date.now();
      for (const session of this.#sessions) session.check(now);
    }, this.#limits.checkIntervalMs);
    this.#timer.unref();
  }

  /** Stops the periodic check when no session is left (an idle gateway keeps no timer for realtime). */
  #stopChecksWhenIdle(): void {
    if (this.#sessions.size > 0 || !this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Sessions open now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** The open sessions (for diagnostics and tests). */
  sessions(): readonly RealtimeSession[] {
    return [...this.#sessions];
  }

  /**
   * Handles one `upgrade` event: `GET /v1/realtime` (under `path`) becomes a session; any other path gets 404. Never
   * throws; failures are answered on the socket.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const header = request.headers['x-request-id'];
    const requestId = typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
    socket.on('error', () => {});
    void this.#upgrade(request, socket, head, requestId).catch((error: unknown) => {
      const refusal = refuseUpgrade(socket, error, requestId, this.#secrets);
      this.#options.onRefused?.({ requestId, ...refusal });
    });
  }

  async #upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, requestId: string): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://gateway');
    if (url.pathname.replace(/\/+$/, '') !== '/v1/realtime') throw notFound(url.pathname);
    if (this.#shuttingDown) throw shuttingDown();
    const abort = new AbortController();
    const onGone = () =>
      abort.abort(
        new GatewayError({
          status: 499,
          type: 'invalid_request_error',
          code: 'client_closed_request',
          message: 'The client went away before the session started.',
        }),
      );
    socket.once('close', onGone);
    this.#opening++;
    let call: RealtimeCall<ConnectedUpstream> | undefined;
    try {
      const credentials = readClientCredentials(request);
      const caller = await this.#gateway.authenticate(credentials.authorization, {
        requestId,
        clientAddress: request.socket.remoteAddress,
      });
      const beta = request.headers['openai-beta'];
      const clientBeta = typeof beta === 'string' ? beta : credentials.beta ? 'realtime=v1' : undefined;
      const sessionId = `sess_sy_${randomBytes(12).toString('base64url')}`;
      call = await this.#gateway.openRealtime<ConnectedUpstream>(url.searchParams.get('model') ?? undefined, {
        caller,
        authorization: credentials.authorization,
        requestId,
        sessionId,
        signal: abort.signal,
        ...(clientBeta && { clientHeaders: { 'openai-beta': clientBeta } }),
        connect: (upstream, target) =>
          connectUpstream(upstream, {
            provider: target.provider,
            maxPayload: this.#limits.maxMessageBytes * 4,
            timeoutMs: this.#limits.connectTimeoutMs,
            signal: abort.signal,
          }),
      });
      const upstream = call.connection;
      socket.off('close', onGone);
      if (socket.destroyed || this.#shuttingDown) {
        upstream.socket.terminate();
        throw this.#shuttingDown ? shuttingDown() : abort.signal.reason;
      }
      const admitted = call;
      let started = false;
      this.#wss.handleUpgrade(request, socket, head, (client) => {
        started = true;
        this.#start(client, upstream, admitted, sessionId, requestId);
      });
      // `ws` answers a malformed upgrade (no or a bad Sec-WebSocket-Key, another version...) with 400 at once,
      // without calling back: the upstream, the deployment and the slot go back, and the attempt is booked 400.
      if (!started) {
        upstream.socket.terminate();
        await admitted.ticket?.book({ responseId: requestId, target: admitted.target, status: 400, latencyMs: 0 });
        await admitted.close();
      }
    } catch (error) {
      socket.off('close', onGone);
      if (call) {
        // Connected but never started (the client left, or shutdown began): one ledger row with the failure's status,
        // then the deployment and the slot back.
        const status = GatewayError.isInstance(error) ? error.status : 500;
        await call.ticket?.book({ responseId: requestId, target: call.target, status, latencyMs: 0 });
        await call.close();
      }
      throw error;
    } finally {
      this.#opening--;
    }
  }

  #start(
    client: WebSocket,
    connected: ConnectedUpstream,
    call: RealtimeCall<ConnectedUpstream>,
    sessionId: string,
    requestId: string,
  ): void {
    const upstream = connected.socket;
    connected.takeOver();
    const session: RealtimeSession = new RealtimeSession({
      early: connected.early,
      sessionId,
      requestId,
      client,
      upstream,
      call,
      limits: this.#limits,
      onError: this.#options.onError,
      onEnd: (end) => {
        this.#sessions.delete(session);
        this.#stopChecksWhenIdle();
        this.#options.onSessionEnd?.(end);
      },
    });
    this.#sessions.add(session);
    this.#startChecks();
    this.#options.onSessionStart?.({ sessionId, model: call.model, provider: call.target.provider });
    upstream.resume();
  }

  /**
   * Graceful shutdown: new upgrades get 503; each session ends (error event `server_shutting_down`, close code 1012)
   * as soon as it has no response in progress, at the latest after `graceMs`. Resolves once every session has ended and
   * its responses are booked, with how many were cut in the middle of a response.
   */
  async drain(graceMs: number): Promise<{ cut: number }> {
    this.#shuttingDown = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    const all = [...this.#sessions];
    for (const session of all) session.drain();
    const deadline = Date.now() + graceMs;
    while ((this.#sessions.size > 0 || this.#opening > 0) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    let cut = 0;
    for (const session of [...this.#sessions]) if (session.cut()) cut++;
    await Promise.all(all.map((session) => session.booked()));
    return { cut };
  }

  /** Ends every session at once (as {@link drain} with no grace) and stops the periodic check. */
  async close(): Promise<void> {
    await this.drain(0);
    this.#wss.close();
  }
}
