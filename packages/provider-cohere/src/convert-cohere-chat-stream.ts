import {
  type ChatCompletionChunk,
  GatewayError,
  type ServerSentEvent,
  checkUpstreamEvent,
  mapTransportError,
  readUpstreamEvent,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import {
  type CohereStreamEvent,
  cohereKnownStreamEventSchema,
  cohereStreamEventSchema,
  cohereStreamEventSchemas,
} from './cohere-api.js';
import { mapCohereFinishReason, mapCohereUsage } from './map-cohere-finish.js';

/**
 * Cohere v2 stream events -> OpenAI `chat.completion.chunk`s as they arrive: `message-start` -> the role chunk,
 * `content-delta` -> content, `tool-call-start` -> a tool call delta with `index`, `id`, `type` and `name`,
 * `tool-call-delta` -> argument fragments on the same `index`, `message-end` -> the finish reason and then a
 * usage-only chunk (`choices: []`). `tool-plan-delta` (Cohere's narrative before tool calls), `content-start/end`,
 * `tool-call-end` and citations carry nothing OpenAI has: skipped. An event that is not JSON, or one of the types read
 * without the fields read (`cohereStreamEventSchemas`), throws 502 `upstream_invalid_response`; a stream that ends
 * before `message-end` throws 502, a broken connection 502/504, a `finish_reason` ERROR/TIMEOUT 502.
 * @see https://docs.cohere.com/reference/chat-stream
 */
export async function* convertCohereChatStream(
  events: AsyncIterable<ServerSentEvent>,
  provider: string,
  model: string,
  signal: AbortSignal,
): AsyncGenerator<ChatCompletionChunk> {
  let id = 'chatcmpl-cohere';
  const created = Math.floor(Date.now() / 1000);
  const chunk = (
    choices: ChatCompletionChunk['choices'],
    extra: Partial<ChatCompletionChunk> = {},
  ): ChatCompletionChunk => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra });
  try {
    for await (const sse of events) {
      if (!sse.data.trim()) continue;
      const event = readCohereStreamEvent(provider, sse.data);
      if (!event) continue;
      switch (event.type) {
        case 'message-start':
          if (event.id) id = `chatcmpl-${event.id}`;
          yield chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
          break;
        case 'content-delta':
          yield chunk([{ index: 0, delta: { content: event.delta.message.content.text }, finish_reason: null }]);
          break;
        case 'tool-call-start': {
          const call = event.delta.message.tool_calls;
          yield chunk([
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: event.index ?? 0,
                    id: call.id,
                    type: 'function',
                    function: { name: call.function.name, arguments: call.function.arguments ?? '' },
                  },
                ],
              },
              finish_reason: null,
            },
          ]);
          break;
        }
        case 'tool-call-delta':
          yield chunk([
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: event.index ?? 0,
                    function: { arguments: event.delta.message.tool_calls.function?.arguments ?? '' },
                  },
                ],
              },
              finish_reason: null,
            },
          ]);
          break;
        case 'message-end': {
          yield chunk([
            { index: 0, delta: {}, finish_reason: mapCohereFinishReason(provider, event.delta?.finish_reason) },
          ]);
          const usage = mapCohereUsage(event.delta?.usage);
          if (usage) yield chunk([], { usage });
          return;
        }
      }
    }
  } catch (error) {
    throw GatewayError.isInstance(error) ? error : mapTransportError(provider, error, signal);
  }
  throw upstreamInvalidResponseError(provider, 'the stream ended before message-end.');
}

/**
 * One event's data through the schemas: its `type` first (every event has one), then, for a type this adapter reads,
 * that type's schema. Undefined for the types it skips. Throws 502 `upstream_invalid_response` naming the provider.
 */
function readCohereStreamEvent(provider: string, data: string): CohereStreamEvent | undefined {
  const event = readUpstreamEvent(provider, cohereStreamEventSchema, data);
  if (!Object.hasOwn(cohereStreamEventSchemas, event.type)) return undefined;
  return checkUpstreamEvent(provider, cohereKnownStreamEventSchema, event, `a '${event.type}' stream event`);
}
