import {
  type AcceptedCall,
  type ChatCompletionChunk,
  type GatewayWarning,
  GatewayError,
  encodeSSEError,
  hasSSEText,
  redactGatewayError,
  toSSEStream,
} from '@switchyard/core';
import type { Response } from 'express';
import { addWarningHeader, applyAcceptedHeaders } from './apply-call-headers.js';
import { EventStreamWriter, type SSEOptions } from './event-stream-writer.js';
import { locals } from './request-locals.js';

export type { SSEOptions } from './event-stream-writer.js';

/**
 * Streams server-sent events already encoded (`data: …\n\n`, or `event: …\ndata: …\n\n`, as text or UTF-8 bytes) with the response's
 * {@link EventStreamWriter}: status 200 and `text/event-stream` headers at once (unless {@link openEventStreamWhenIdle}
 * sent them earlier), keep-alive comments while idle, back-pressure and the slow-reader timeout.
 */
export function sendEventStream(
  res: Response,
  events: AsyncIterable<string | Uint8Array>,
  options: SSEOptions = {},
): Promise<void> {
  return EventStreamWriter.of(res, options).pipe(events);
}

/**
 * Called when an upstream accepted a streamed call: if its first event is not ready within `keepAliveMs`, `beforeOpen`
 * runs (to set the call's headers), status 200 and the SSE headers go out with a `: keep-alive` comment and the
 * keep-alive continues, so that a model that thinks for a minute keeps its connection. A first event that comes
 * sooner opens the stream with the final headers. A later {@link sendSSE} / {@link sendEventStream} continues the
 * same stream.
 */
export function openEventStreamWhenIdle(res: Response, beforeOpen: () => void, options: SSEOptions = {}): void {
  EventStreamWriter.of(res, options).openWhenIdle(beforeOpen);
}

/**
 * A streamed call's `onAccepted` (`GatewayCallOptions.onAccepted`) for a front door whose stream carries the call's
 * headers: {@link openEventStreamWhenIdle} with the accepting deployment's headers (`applyAcceptedHeaders`) set just
 * before the stream opens, then the front door's own warnings (what its translation dropped; `frontDoorWarnings` is
 * read then, as a front door may learn them after the options were made) added to `x-switchyard-warning` after the
 * adapters' (`addWarningHeader`), as `applyCallHeaders` then `addWarningHeader` do once the call's result is there.
 * Give it to `callOptions` as the options are made (see there why never later).
 */
export function openWhenAccepted(
  res: Response,
  options: SSEOptions,
  frontDoorWarnings?: () => readonly GatewayWarning[],
): (accepted: AcceptedCall) => void {
  return (accepted) =>
    openEventStreamWhenIdle(
      res,
      () => {
        applyAcceptedHeaders(res, accepted);
        if (frontDoorWarnings) addWarningHeader(res, frontDoorWarnings());
      },
      options,
    );
}

/**
 * Ends a stream opened by {@link openEventStreamWhenIdle} whose call then failed (before its first chunk, after
 * retries): one error event, never a success. `encode` gives the front door's own error event (default: chat's
 * `data: {"error":{message,type,param,code}}`); it gets the error with `secrets` redacted from every field. Returns
 * false when the stream was not opened (the caller answers with an ordinary error response instead).
 */
export function failEventStream(
  res: Response,
  error: unknown,
  secrets: readonly string[] = [],
  encode: (error: unknown) => string = encodeSSEError,
): boolean {
  const writer = EventStreamWriter.of(res);
  writer.cancel();
  if (!writer.opened) return false;
  if (!res.destroyed) locals(res).error = error;
  writer.end(encode(GatewayError.isInstance(error) ? redactGatewayError(error, secrets) : error));
  return true;
}

/**
 * Streams chat chunks as server-sent events: one `data:` event per chunk, then `data: [DONE]`, or one
 * `data: {"error":...}` event (`secrets` redacted from every field) if the upstream fails mid-stream (see
 * {@link sendEventStream} for keep-alive and slow clients).
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export function sendSSE(
  res: Response,
  chunks: AsyncIterable<ChatCompletionChunk>,
  options: SSEOptions = {},
): Promise<void> {
  const onError = (error: unknown) => {
    if (!res.destroyed) locals(res).error = error;
  };
  // A pass-through stream (OpenAI-family upstream) is written as the upstream's event text, one string per network read.
  const events = hasSSEText(chunks)
    ? chunks.sseText(onError, options.secrets)
    : toSSEStream(chunks, onError, options.secrets);
  return sendEventStream(res, events, options);
}
