import type { RealtimeEvent } from '@switchyard/core';

/**
 * Replaces `session.model` of a `session.*` event by `model` (the gateway's id towards the client, the upstream's id
 * towards the upstream) when the event carries one; returns whether it changed. Nothing else of the event is touched.
 * @see https://platform.openai.com/docs/api-reference/realtime-server-events/session/created
 */
export function replaceSessionModel(event: RealtimeEvent, model: string): boolean {
  const session = event.session;
  if (typeof session !== 'object' || session === null || Array.isArray(session)) return false;
  const fields = session as Record<string, unknown>;
  if (typeof fields.model !== 'string' || fields.model === model) return false;
  fields.model = model;
  return true;
}
