import { type ChatCompletionChunk, GatewayError, type ServerSentEvent, mapTransportError, upstreamInvalidResponseError } from '@switchyard/core';
import type { AnthropicStreamEvent, AnthropicUsage } from './anthropic-types.js';
import { mapAnthropicStreamError } from './map-anthropic-error.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicUsage } from './map-anthropic-usage.js';

/** Options of {@link convertAnthropicStream}. */
export interface AnthropicStreamOptions {
  provider: string;
  signal: AbortSignal;
  /** The choice index the chunks carry (n > 1 runs one stream per choice). */
  choiceIndex?: number;
  /** Overrides the chunk id (so merged streams share one). */
  id?: string;
}

async function* convertEvents(events: AsyncIterable<ServerSentEvent>, options: AnthropicStreamOptions): AsyncGenerator<ChatCompletionChunk> {
  const index = options.choiceIndex ?? 0;
  let id = options.id ?? 'msg';
  let model = '';
  const created = Math.floor(Date.now() / 1000);
  let usage: AnthropicUsage = {};
  const toolIndexByBlock = new Map<number, number>();
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index, delta, finish_reason: finish as ChatCompletionChunk['choices'][number]['finish_reason'] }],
  });
  for await (const sse of events) {
    let event: AnthropicStreamEvent;
    try {
      event = JSON.parse(sse.data) as AnthropicStreamEvent;
    } catch (error) {
      throw upstreamInvalidResponseError(options.provider, 'a stream event is not valid JSON.', error);
    }
    switch (event.type) {
      case 'message_start':
        id = options.id ?? event.message.id;
        model = event.message.model;
        usage = { ...event.message.usage };
        yield chunk({ role: 'assistant', content: '' });
        break;
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          const block = event.content_block as { id: string; name: string };
          const toolIndex = toolIndexByBlock.size;
          toolIndexByBlock.set(event.index, toolIndex);
          yield chunk({ tool_calls: [{ index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] });
        } else if (event.content_block.type === 'text' && (event.content_block as { text?: string }).text) {
          yield chunk({ content: (event.content_block as { text: string }).text });
        }
        break;
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') yield chunk({ content: (event.delta as { text: string }).text });
        else if (event.delta.type === 'input_json_delta') {
          const toolIndex = toolIndexByBlock.get(event.index);
          const partial = (event.delta as { partial_json: string }).partial_json;
          if (toolIndex !== undefined && partial) yield chunk({ tool_calls: [{ index: toolIndex, function: { arguments: partial } }] });
        }
        break;
      case 'message_delta':
        usage = { ...usage, ...event.usage };
        yield chunk({}, mapAnthropicStopReason(event.delta.stop_reason));
        break;
      case 'message_stop':
        yield { id, object: 'chat.completion.chunk', created, model, choices: [], usage: mapAnthropicUsage(usage) };
        return;
      case 'error':
        throw mapAnthropicStreamError(options.provider, event.error);
      default:
        break; // ping, content_block_stop, thinking deltas: nothing to send
    }
  }
  throw upstreamInvalidResponseError(options.provider, 'the stream ended before message_stop.');
}

/**
 * Anthropic stream events -> OpenAI `chat.completion.chunk`s, as they arrive: `message_start` -> the role chunk;
 * text deltas -> content; a `tool_use` block -> a `tool_calls` entry (OpenAI's index counts tool calls, Anthropic's
 * counts all blocks, so it is remapped) and its `input_json_delta` fragments -> `arguments` pieces; `message_delta`
 * -> the finish reason; `message_stop` -> a usage-only chunk (`choices: []`) and the end. `ping` is ignored. An
 * `error` event throws its GatewayError (the gateway then sends one error event); a stream that ends before
 * `message_stop`, or breaks, throws 502/504.
 * @see https://docs.anthropic.com/en/api/messages-streaming
 */
export async function* convertAnthropicStream(events: AsyncIterable<ServerSentEvent>, options: AnthropicStreamOptions): AsyncGenerator<ChatCompletionChunk> {
  try {
    yield* convertEvents(events, options);
  } catch (error) {
    throw GatewayError.isInstance(error) ? error : mapTransportError(options.provider, error, options.signal);
  }
}
