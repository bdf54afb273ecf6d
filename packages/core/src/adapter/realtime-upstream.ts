import type { RealtimeEvent } from '../schemas/realtime-event.js';

/** What the gateway asks an adapter for when a client opens `GET /v1/realtime?model=<id>`. */
export interface RealtimeRequest {
  /** The upstream's model id (the configured `upstream`; for Azure, the deployment name). */
  model: string;
}

/**
 * What a translator makes of one message: messages to send upstream (JSON text, in the upstream's protocol) and
 * events to send the client (OpenAI Realtime server events, e.g. the acknowledgements the upstream has no equivalent
 * of, or an `error` for an event it refuses).
 */
export interface RealtimeTranslation {
  upstream: string[];
  client: RealtimeEvent[];
}

/**
 * Translates a session between OpenAI's Realtime events (the client's side) and an upstream that speaks another
 * protocol (Gemini Live's `BidiGenerateContent`). One translator per session; it keeps the session's state (the
 * response in progress, its usage). Never throws: what it cannot map becomes an `error` event for the client.
 */
export interface RealtimeTranslator {
  /** Messages to send as soon as the upstream socket is open (Gemini's `setup`), and events for the client. */
  open(): RealtimeTranslation;
  /** One client event (already parsed and checked to be an object with a `type`). */
  fromClient(event: RealtimeEvent): RealtimeTranslation;
  /** One upstream message (its text; binary frames arrive decoded as UTF-8). */
  fromUpstream(message: string): RealtimeTranslation;
}

/**
 * Where and how the gateway opens a session's upstream WebSocket: the `wss://` (or `ws://`) URL with its query, the
 * handshake headers (the upstream key swapped in; the client's key never goes upstream), optional subprotocols, and a
 * {@link RealtimeTranslator} for upstreams that do not speak OpenAI's Realtime events (absent: events pass unchanged).
 * Secrets in `headers` or `url` are never logged by the gateway; `secrets` lists them for redaction of upstream errors.
 */
export interface RealtimeUpstream {
  url: string;
  headers: Record<string, string>;
  protocols?: string[];
  /** The upstream's keys, to redact from anything the upstream sends back in an error. */
  secrets?: readonly (string | undefined)[];
  translator?: RealtimeTranslator;
}
