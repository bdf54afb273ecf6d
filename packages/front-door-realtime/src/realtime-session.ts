import {
  type RealtimeCall,
  type RealtimeEvent,
  type RealtimeTranslation,
  type SessionResponseReport,
  realtimeErrorEvent,
  realtimeEventSchema,
  realtimeResponseDoneSchema,
} from '@switchyard/core';
import WebSocket from 'ws';
import { BackPressuredChannel } from './back-pressured-channel.js';
import type { RealtimeEndReason, RealtimeLimits, RealtimeSessionEnd } from './realtime-options.js';
import { ResponseMeter } from './response-meter.js';
import { type SessionClosing, sessionClosing } from './session-closing.js';
import { replaceSessionModel } from './session-model-name.js';

/** What a {@link RealtimeSession} is made of. */
export interface RealtimeSessionInit {
  sessionId: string;
  requestId: string;
  client: WebSocket;
  /** The upstream socket, open and paused (the session resumes it). */
  upstream: WebSocket;
  /** Upstream messages that arrived before the session started, relayed first. */
  early?: readonly Buffer[];
  call: RealtimeCall;
  limits: RealtimeLimits;
  /** Called once when the session has ended (both sockets closing, its responses booked). */
  onEnd: (end: RealtimeSessionEnd) => void;
  /** Failures of booking (never thrown to the session). */
  onError?: (error: unknown) => void;
}

/** Parses a JSON text into a Realtime event (an object with a string `type`), or undefined. */
function parseEvent(text: string): RealtimeEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = realtimeEventSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * One Realtime session: the client's WebSocket relayed to the upstream's, both ways, with back-pressure
 * ({@link BackPressuredChannel}). Events pass unchanged, except `session.model` (the client's id towards the client,
 * the upstream's towards the upstream), or through the adapter's translator when it has one. Each `response.done` is
 * booked (`SessionTicket.book`) and the key's budget and state checked after it; the server's periodic {@link check}
 * ends sessions past their maximum length, idle ones, and those of revoked keys. Every end sends an `error` event
 * and a close code (see {@link sessionClosing}) unless the client itself closed.
 */
export class RealtimeSession {
  readonly sessionId: string;
  readonly startedAt = Date.now();
  #lastActivity = Date.now();
  readonly #init: RealtimeSessionInit;
  readonly #meter: ResponseMeter;
  readonly #toUpstream: BackPressuredChannel;
  readonly #toClient: BackPressuredChannel;
  #ended = false;
  #draining = false;
  #booked = 0;
  #bookings: Promise<unknown> = Promise.resolve();
  readonly #messages = { fromClient: 0, fromUpstream: 0 };

  constructor(init: RealtimeSessionInit) {
    this.#init = init;
    this.sessionId = init.sessionId;
    const { client, upstream, call, limits } = init;
    this.#meter = new ResponseMeter(call.target);
    this.#toUpstream = new BackPressuredChannel(client, upstream, limits.maxBufferedBytes);
    this.#toClient = new BackPressuredChannel(upstream, client, limits.maxBufferedBytes);
    client.on('message', (data: Buffer, isBinary) => this.#fromClient(data, isBinary));
    upstream.on('message', (data: Buffer) => this.#fromUpstream(data));
    client.on('close', (code) =>
      this.#end('client_closed', { code: code === 1005 || code === 1006 ? 1000 : code, text: '' }),
    );
    upstream.on('close', (code, reason) => this.#upstreamClosed(code, reason.toString('utf8')));
    client.on('error', () => {}); // a 'close' follows every error
    upstream.on('error', () => {});
    const translator = call.upstream.translator;
    if (translator) this.#apply(translator.open());
    for (const message of init.early ?? []) this.#fromUpstream(message);
    // An upstream that went away before the session started.
    if (upstream.readyState !== WebSocket.OPEN) this.#upstreamClosed(1006, '');
  }

  /** Responses started and not done. */
  get responsesInProgress(): number {
    return this.#meter.inProgress;
  }

  /** True once the session has ended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Bytes queued towards the upstream and towards the client (see {@link BackPressuredChannel}). */
  get queuedBytes(): { toUpstream: number; toClient: number } {
    return { toUpstream: this.#toUpstream.queuedBytes, toClient: this.#toClient.queuedBytes };
  }

  /**
   * The periodic check: ends the session when it lasted longer than `maxSessionMs`, went `idleTimeoutMs` without a
   * message, or its key was revoked or expired. A session with messages still queued towards a slow peer (its other
   * side paused, see {@link BackPressuredChannel}) is not idle.
   */
  check(now = Date.now()): void {
    if (this.#ended) return;
    const { limits, call } = this.#init;
    if (this.#toUpstream.queuedBytes > 0 || this.#toClient.queuedBytes > 0) this.#lastActivity = now;
    const keyError = call.ticket?.checkKey();
    if (keyError) this.#close('key_revoked', sessionClosing('key_revoked', keyError.message));
    else if (now - this.startedAt >= limits.maxSessionMs) {
      this.#close(
        'session_expired',
        sessionClosing(
          'session_expired',
          `The session reached the gateway's maximum length of ${Math.round(limits.maxSessionMs / 1000)} s.`,
        ),
      );
    } else if (now - this.#lastActivity >= limits.idleTimeoutMs) {
      this.#close(
        'idle_timeout',
        sessionClosing(
          'idle_timeout',
          `The session was idle for ${Math.round(limits.idleTimeoutMs / 1000)} s (no event either way).`,
        ),
      );
    }
  }

  /** Graceful shutdown: the session ends as soon as no response is in progress (at once when none is). */
  drain(): void {
    this.#draining = true;
    this.#endIfDrained();
  }

  /** Ends the session now (shutdown grace over). Returns true when a response was cut. */
  cut(): boolean {
    const cutting = this.#meter.inProgress > 0;
    this.#close(
      'server_shutting_down',
      sessionClosing('server_shutting_down', 'The gateway is shutting down; reconnect to continue.'),
    );
    return cutting;
  }

  /** Resolves once every response booked so far is written. */
  booked(): Promise<unknown> {
    return this.#bookings;
  }

  #endIfDrained(): void {
    if (this.#draining && this.#meter.inProgress === 0) this.cut();
  }

  #fromClient(data: Buffer, isBinary: boolean): void {
    if (this.#ended) return;
    this.#lastActivity = Date.now();
    this.#messages.fromClient++;
    const { limits, call } = this.#init;
    if (isBinary) {
      this.#toClient.send(
        JSON.stringify(
          realtimeErrorEvent(
            'invalid_request_error',
            'invalid_event',
            'Binary frames are not Realtime events: send JSON text frames (audio as base64 in input_audio_buffer.append).',
          ),
        ),
      );
      return;
    }
    if (data.length > limits.maxMessageBytes) {
      const message = `The event of ${data.length} bytes exceeds the gateway's limit of ${limits.maxMessageBytes} bytes per message and was not sent on.`;
      this.#toClient.send(JSON.stringify(realtimeErrorEvent('invalid_request_error', 'message_too_large', message)));
      return;
    }
    const translator = call.upstream.translator;
    if (translator) {
      const event = parseEvent(data.toString('utf8'));
      if (!event) {
        this.#toClient.send(
          JSON.stringify(
            realtimeErrorEvent(
              'invalid_request_error',
              'invalid_event',
              'The message is not a JSON object with a string `type`.',
            ),
          ),
        );
        return;
      }
      if (event.type === 'response.create') this.#meter.requested();
      this.#apply(translator.fromClient(event));
      return;
    }
    if (data.includes('"response.create"')) this.#meter.requested();
    if (data.includes('"session.update"')) {
      const event = parseEvent(data.toString('utf8'));
      if (event?.type === 'session.update' && replaceSessionModel(event, call.target.upstreamModel)) {
        this.#toUpstream.send(JSON.stringify(event));
        return;
      }
    }
    this.#toUpstream.send(data);
  }

  #fromUpstream(data: Buffer): void {
    if (this.#ended) return;
    this.#lastActivity = Date.now();
    this.#messages.fromUpstream++;
    const translator = this.#init.call.upstream.translator;
    if (translator) {
      this.#apply(translator.fromUpstream(data.toString('utf8')));
      return;
    }
    // Only events the gateway reads are parsed: their type names cannot appear without these substrings.
    if (data.includes('response.done') || data.includes('response.created') || data.includes('"session.')) {
      const event = parseEvent(data.toString('utf8'));
      if (event) {
        this.#toClientEvent(event, data);
        return;
      }
    }
    this.#toClient.send(data);
  }

  /** Sends what a translator made: upstream messages, then client events (metered as upstream events are). */
  #apply(translation: RealtimeTranslation): void {
    for (const message of translation.upstream) this.#toUpstream.send(message);
    for (const event of translation.client) this.#toClientEvent(event);
  }

  /** One server event towards the client: `session.model` renamed, responses metered; `raw` is sent when unchanged. */
  #toClientEvent(event: RealtimeEvent, raw?: Buffer): void {
    const { call } = this.#init;
    if (
      (event.type === 'session.created' || event.type === 'session.updated') &&
      replaceSessionModel(event, call.model)
    )
      raw = undefined;
    this.#toClient.send(raw ?? JSON.stringify(event));
    if (event.type === 'response.created') {
      const response = event.response as { id?: unknown } | undefined;
      const evicted = this.#meter.created(typeof response?.id === 'string' ? response.id : undefined);
      if (evicted) this.#book(evicted, false);
    } else if (event.type === 'response.done') {
      const done = realtimeResponseDoneSchema.safeParse(event);
      const report = this.#meter.done(
        done.success ? done.data.response.id : undefined,
        done.success ? (done.data.response.usage ?? undefined) : undefined,
      );
      this.#book(report, true);
    }
  }

  /** Books one response; with `thenCheck`, ends the session when its key was revoked or its budget is now spent. */
  #book(report: SessionResponseReport, thenCheck: boolean): void {
    const ticket = this.#init.call.ticket;
    this.#booked++;
    if (!ticket) {
      if (thenCheck) this.#endIfDrained();
      return;
    }
    const booking = (async () => {
      await ticket.book(report);
      if (!thenCheck || this.#ended) return;
      const refusal = await ticket.check();
      if (refusal && !this.#ended) {
        const reason: RealtimeEndReason = refusal.status === 401 ? 'key_revoked' : 'budget_exhausted';
        this.#close(reason, sessionClosing(reason, refusal.message, refusal.type, refusal.code ?? undefined));
        return;
      }
      this.#endIfDrained();
    })().catch((error: unknown) => this.#init.onError?.(error));
    this.#bookings = Promise.all([this.#bookings, booking]);
  }

  #upstreamClosed(code: number, reason: string): void {
    if (this.#ended) return;
    if (code === 1000 || code === 1001) {
      this.#close('upstream_closed', { code, text: reason.slice(0, 100) });
      return;
    }
    const detail = reason ? `: ${reason.slice(0, 200)}` : '';
    this.#close(
      'upstream_disconnected',
      sessionClosing(
        'upstream_disconnected',
        `The upstream ${this.#init.call.target.provider} closed the session (code ${code}${detail}).`,
      ),
    );
  }

  /** Ends the session with `closing`: the error event first, then the close frame to the client; the upstream closed. */
  #close(reason: RealtimeEndReason, closing: SessionClosing): void {
    if (this.#ended) return;
    const { client } = this.#init;
    if (closing.event && client.readyState === WebSocket.OPEN) client.send(JSON.stringify(closing.event));
    this.#end(reason, closing);
  }

  #end(reason: RealtimeEndReason, closing: SessionClosing): void {
    if (this.#ended) return;
    this.#ended = true;
    const { client, upstream, call } = this.#init;
    if (client.readyState === WebSocket.OPEN || client.readyState === WebSocket.CONNECTING)
      client.close(closing.code, closing.text);
    if (upstream.readyState === WebSocket.OPEN) upstream.close(1000);
    else if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
    // Responses cut by the end: 499 when the client left, 503 at shutdown, 502 when the upstream dropped, else 499.
    const status =
      reason === 'server_shutting_down'
        ? 503
        : reason === 'upstream_disconnected' || reason === 'upstream_closed'
          ? 502
          : 499;
    for (const report of this.#meter.cutAll(status)) this.#book(report, false);
    const closed = this.#bookings.then(() => call.close());
    this.#bookings = closed;
    this.#init.onEnd({
      sessionId: this.sessionId,
      requestId: this.#init.requestId,
      model: call.model,
      provider: call.target.provider,
      durationMs: Date.now() - this.startedAt,
      closeCode: closing.code,
      reason,
      responses: this.#booked,
      messages: { ...this.#messages },
    });
  }
}
