import { type RealtimeErrorEvent, realtimeErrorEvent } from '@switchyard/core';
import type { RealtimeEndReason } from './realtime-options.js';

/** How the gateway closes a session for one reason: the WebSocket close code, its short reason, and the `error` event sent first. */
export interface SessionClosing {
  code: number;
  /** The close frame's reason (at most 123 bytes). */
  text: string;
  /** The `error` event sent before the close frame, if any. */
  event?: RealtimeErrorEvent;
}

/**
 * The close of a session the gateway ends itself: key revoked or expired (1008, `invalid_api_key`), budget spent
 * (1008, `insufficient_quota`), maximum length reached (1008, `session_expired`), idle (1000, `idle_timeout`), a
 * client message over twice the size limit (1009, `message_too_large`), the upstream dropped (1014 "bad gateway",
 * `upstream_disconnected`), the gateway shutting down (1012 "service restart", `server_shutting_down`), an
 * unexpected failure (1011, `internal_error`). `message` is the error event's text (no secrets).
 * @see https://www.rfc-editor.org/rfc/rfc6455#section-7.4.1
 * @see https://www.iana.org/assignments/websocket/websocket.xml#close-code-number
 */
export function sessionClosing(
  reason: RealtimeEndReason,
  message: string,
  errorType?: string,
  errorCode?: string,
): SessionClosing {
  const error = (type: string, code: string) => realtimeErrorEvent(errorType ?? type, errorCode ?? code, message);
  switch (reason) {
    case 'key_revoked':
      return {
        code: 1008,
        text: 'API key revoked or expired',
        event: error('invalid_request_error', 'invalid_api_key'),
      };
    case 'budget_exhausted':
      return { code: 1008, text: 'budget spent', event: error('insufficient_quota', 'insufficient_quota') };
    case 'session_expired':
      return {
        code: 1008,
        text: 'maximum session length reached',
        event: error('invalid_request_error', 'session_expired'),
      };
    case 'idle_timeout':
      return { code: 1000, text: 'idle timeout', event: error('invalid_request_error', 'idle_timeout') };
    case 'message_too_large':
      return { code: 1009, text: 'message too large', event: error('invalid_request_error', 'message_too_large') };
    case 'upstream_disconnected':
      return { code: 1014, text: 'upstream disconnected', event: error('server_error', 'upstream_disconnected') };
    case 'server_shutting_down':
      return { code: 1012, text: 'gateway shutting down', event: error('server_error', 'server_shutting_down') };
    case 'internal_error':
      return { code: 1011, text: 'internal error', event: error('server_error', 'internal_error') };
    default:
      return { code: 1000, text: '' };
  }
}
