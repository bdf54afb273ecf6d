import { randomUUID } from 'node:crypto';
import { type RealtimeEvent, realtimeErrorEvent } from '@switchyard/core';

/** A fresh Realtime id with `prefix` (`event`, `item`, `resp`, `call`, `sess`): the prefix, `_`, 20 hex characters. */
export const realtimeId = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 20)}`;

/** True for a plain object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An OpenAI Realtime `error` event (see `realtimeErrorEvent`) as a {@link RealtimeEvent}. */
export const errorEvent = (...args: Parameters<typeof realtimeErrorEvent>): RealtimeEvent => ({
  ...realtimeErrorEvent(...args),
});

/** The `error` event (`invalid_request_error`, `unsupported_event`) for a client event Gemini Live cannot take. */
export const refuse = (message: string, causedBy?: string) =>
  errorEvent('invalid_request_error', 'unsupported_event', message, causedBy ?? null);
