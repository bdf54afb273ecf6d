import {
  type ChatCompletionChunk,
  GatewayError,
  type ServerSentEvent,
  checkUpstreamEvent,
  mapTransportError,
  readUpstreamEvent,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { type CohereStreamEvent, cohereAnyEventSchema, cohereStreamEventSchema } from './cohere-api.js';
import { mapCohereFinishReason } from './map-cohere-finish-reason.js';
import { mapCohereUsage } from './map-cohere-usage.js';

/**
 * Cohere v2 stream events -> OpenAI `chat.completion.chunk`s, one per event that carries something: `message-start`
 * gives the role chunk, each `content-delta` a content chunk, `message-end` the finish reason and then a usage-only
 * chunk (choices `[]`). Other events (`content-start`, `content-end`, ...) are skipped. A stream that ends without
 * `message-end` throws 502, so a cut-off stream never looks finished; an event that is not JSON, or one of the types read
 * without the fields read (`cohereStreamEventSchema`), throws 502 `upstream_invalid_response`; a broken connection
 * throws 502/504.
 * @see https://docs.cohere.com/reference/chat-stream
 */
export async function* convertCohereStream(
  events: AsyncIterable<ServerSentEvent>,
  provider: string,
  model: string,
  signal: AbortSignal,
): AsyncGenerator<ChatCompletionChunk> {
  try {
    yield* convertEvents(events, provider, model);
  } catch (error) {
    // A broken connection surfaces as a transport error: 502/504 (or the abort reason), never a quiet end.
    throw GatewayError.isInstance(error) ? error : mapTransportError(provider, error, signal);
  }
}

async function* convertEvents(
  events: AsyncIterable<ServerSentEvent>,
  provider: string,
  model: string,
): AsyncGenerator<ChatCompletionChunk> {
  let id = 'chatcmpl-cohere';
  const created = Math.floor(Date.now() / 1000);
  const chunk = (
    choices: ChatCompletionChunk['choices'],
    extra: Partial<ChatCompletionChunk> = {},
  ): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices,
    ...extra,
  });
  for await (const sse of events) {
    const event = readEvent(provider, sse.data);
    if (!event) continue;
    if (event.type === 'message-start') {
      if (typeof event.id === 'string') id = `chatcmpl-${event.id}`;
      yield chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    } else if (event.type === 'content-delta') {
      const text = event.delta.message.content.text;
      yield chunk([{ index: 0, delta: { content: text }, finish_reason: null }]);
    } else if (event.type === 'message-end') {
      const end = event;
      if (end.delta.finish_reason === 'ERROR') {
        throw new GatewayError({
          status: 502,
          type: 'server_error',
          code: 'upstream_stream_error',
          message: `The upstream provider '${provider}' failed mid-stream.`,
        });
      }
      yield chunk([{ index: 0, delta: {}, finish_reason: mapCohereFinishReason(end.delta.finish_reason) }]);
      const usage = mapCohereUsage(end.delta.usage);
      if (usage) yield chunk([], { usage });
      return;
    }
  }
  throw upstreamInvalidResponseError(provider, 'the stream ended before message-end.');
}

/** One event's data through the schemas (its `type`, then the schema of a type read); undefined for other types. */
function readEvent(provider: string, data: string): CohereStreamEvent | undefined {
  const event = readUpstreamEvent(provider, cohereAnyEventSchema, data);
  if (event.type !== 'message-start' && event.type !== 'content-delta' && event.type !== 'message-end')
    return undefined;
  return checkUpstreamEvent(provider, cohereStreamEventSchema, event, `a '${event.type}' stream event`);
}
