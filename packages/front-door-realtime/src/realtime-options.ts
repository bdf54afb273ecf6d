/** What ended a session, for metrics and logs (see {@link RealtimeSessionEnd}). */
export type RealtimeEndReason =
  | 'client_closed'
  | 'upstream_closed'
  | 'upstream_disconnected'
  | 'key_revoked'
  | 'budget_exhausted'
  | 'session_expired'
  | 'idle_timeout'
  | 'message_too_large'
  | 'server_shutting_down'
  | 'internal_error';

/** One session that ended, as reported to {@link RealtimeOptions.onSessionEnd}. */
export interface RealtimeSessionEnd {
  sessionId: string;
  /** The upgrade request's id. */
  requestId: string;
  /** The model id the client asked for. */
  model: string;
  provider: string;
  /** From the upgrade to the close, ms. */
  durationMs: number;
  /** The WebSocket close code sent to the client (1000 normal, 1008 policy, 1009 too large, 1012 restart, 1014 bad gateway...). */
  closeCode: number;
  reason: RealtimeEndReason;
  /** Responses booked (one ledger row each). */
  responses: number;
  /** Client and upstream messages relayed. */
  messages: { fromClient: number; fromUpstream: number };
}

/** Limits and hooks of the Realtime front door; every duration in ms, every size in bytes. */
export interface RealtimeOptions {
  /** Longest a session may last; then it is closed with `session_expired` and code 1008. Default 3,600,000 (60 min). */
  maxSessionMs?: number;
  /** Longest a session may go without a message either way; then it is closed with `idle_timeout`, code 1000. Default 300,000. */
  idleTimeoutMs?: number;
  /**
   * Largest client message, bytes. A larger one (up to twice this) is refused with an `error` event naming the limit
   * and not sent on; beyond twice this the session is closed with code 1009. Default 16 MiB (OpenAI's own limit of
   * 15 MiB of audio per append, base64, fits).
   */
  maxMessageBytes?: number;
  /**
   * Bytes queued towards a peer (the upstream, or the client) before the other side is paused: a client that sends
   * faster than the upstream reads stops being read (TCP back-pressure) until the queue drains to half. Default 4 MiB.
   */
  maxBufferedBytes?: number;
  /** How often sessions are checked for expiry, idleness and revoked keys, ms. Default 1,000. */
  checkIntervalMs?: number;
  /** Time allowed to open the upstream WebSocket, ms. Default 10,000. */
  connectTimeoutMs?: number;
  /** Strings never to send to a client or log (gateway and upstream keys). */
  secrets?: readonly string[];
  /** Called when a session starts (after both sockets are open). */
  onSessionStart?: (session: { sessionId: string; model: string; provider: string }) => void;
  /** Called once when a session has ended. */
  onSessionEnd?: (end: RealtimeSessionEnd) => void;
  /** Called with a failure of booking a session's response or checking its key and budget (never thrown). */
  onError?: (error: unknown) => void;
  /** Called with an upgrade refused before the session started (status and OpenAI error code). */
  onRefused?: (refusal: { requestId: string; status: number; code: string | null; model?: string }) => void;
}

/** {@link RealtimeOptions} with the defaults filled in. */
export type RealtimeLimits = Required<
  Pick<
    RealtimeOptions,
    'maxSessionMs' | 'idleTimeoutMs' | 'maxMessageBytes' | 'maxBufferedBytes' | 'checkIntervalMs' | 'connectTimeoutMs'
  >
>;

/** The limits of `options` with their defaults. */
export function realtimeLimits(options: RealtimeOptions): RealtimeLimits {
  return {
    maxSessionMs: options.maxSessionMs ?? 3_600_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
    maxMessageBytes: options.maxMessageBytes ?? 16 * 1024 * 1024,
    maxBufferedBytes: options.maxBufferedBytes ?? 4 * 1024 * 1024,
    checkIntervalMs: options.checkIntervalMs ?? 1_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
  };
}
