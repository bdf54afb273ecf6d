import {
  type ChatCompletionChunk,
  GatewayError,
  mapTransportError,
  type ServerSentEvent,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { AnthropicBlockStream } from './anthropic-block-stream.js';
import type { AnthropicUsage } from './anthropic-response-schemas.js';
import type { AnthropicStreamOptions } from './anthropic-stream-options.js';
import { mapAnthropicStreamError } from './map-anthropic-error.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicUsage, mergeAnthropicUsage } from './map-anthropic-usage.js';
import { parseAnthropicStreamEvent } from './parse-anthropic-stream-event.js';

export type { AnthropicStreamOptions } from './anthropic-stream-options.js';

async function* convertEvents(
  events: AsyncIterable<ServerSentEvent>,
  options: AnthropicStreamOptions,
): AsyncGenerator<ChatCompletionChunk> {
  const blocks = new AnthropicBlockStream(options);
  let usage: AnthropicUsage = {};
  let finishSent = false;
  for await (const sse of events) {
    const event = parseAnthropicStreamEvent(sse.data, options.provider);
    if (!event || event.type === 'ping') continue;
    if (event.type === 'error') throw mapAnthropicStreamError(options.provider, event.error, options.secrets);
    if (event.type === 'message_start') {
      if (blocks.messageId === event.message.id) continue; // a repeated message_start of the open message
      if (blocks.messageId !== undefined)
        throw upstreamInvalidResponseError(options.provider, 'a second message started before the first one ended.');
      blocks.messageId = event.message.id;
      blocks.model = event.message.model;
      usage = mergeAnthropicUsage({}, event.message.usage);
      yield blocks.chunk({ role: 'assistant', content: '' });
      continue;
    }
    if (blocks.messageId === undefined)
      throw upstreamInvalidResponseError(options.provider, `a '${event.type}' event came before message_start.`);
    switch (event.type) {
      case 'content_block_start':
        yield* blocks.blockStart(event);
        break;
      case 'content_block_delta':
        yield* blocks.blockDelta(event);
        break;
      case 'content_block_stop':
        yield* blocks.blockStop(event);
        break;
      case 'message_delta':
        usage = mergeAnthropicUsage(usage, event.usage);
        if (event.delta.stop_reason != null && !finishSent) {
          finishSent = true;
          yield blocks.chunk({}, blocks.finishReason(event.delta.stop_reason));
        }
        break;
      case 'message_stop':
        if (!finishSent) yield blocks.chunk({}, blocks.finishReason(null));
        yield blocks.usageChunk(mapAnthropicUsage(usage));
        return;
    }
  }
  throw upstreamInvalidResponseError(options.provider, 'the stream ended before message_stop.');
}

/**
 * Anthropic stream events -> OpenAI `chat.completion.chunk`s, one by one as they arrive:
 * - `message_start` -> the first chunk (`delta: {role:"assistant", content:""}`; `id`/`model` Anthropic's); a repeated
 *   `message_start` of the same message is ignored, one of another message while the first is open throws 502;
 * - `content_block_start` of a `tool_use` block -> `delta.tool_calls[{index, id, type, function:{name, arguments:""}}]`
 *   (OpenAI's `index` counts tool calls, Anthropic's counts all blocks, so it is remapped); `text_delta` -> `content`;
 *   `input_json_delta` -> `tool_calls[{index, function:{arguments: <fragment>}}]`;
 * - in JSON mode the JSON tool's fragments stream as `content` and text blocks are left out;
 * - `message_delta` -> a chunk with the `finish_reason` ({@link mapAnthropicStopReason}; `tool_use` with only the JSON
 *   tool -> `stop`), its cumulative usage kept;
 * - `message_stop` -> a last usage-only chunk `{choices: [], usage}` (always: the gateway strips it when the client did
 *   not ask for `stream_options.include_usage`); then the end (the gateway sends `[DONE]`);
 * - a `thinking` block: its `thinking_delta`s -> `delta.reasoning_content` pieces (before the content they lead to;
 *   a later thinking block starts with a blank line), and at its `content_block_stop` one
 *   `delta.reasoning_details: [{type:"reasoning.text", text, signature, format:"anthropic-claude-v1", index}]` with the
 *   whole text and the signature (from `signature_delta`), to send back on the next turn; a `redacted_thinking` block
 *   -> `delta.reasoning_details: [{type:"reasoning.encrypted", data, ...}]`;
 * - the web search citations of a text block (on its `content_block_start`, and `citations_delta`s) -> at its
 *   `content_block_stop`, one `delta.annotations` of `url_citation`s spanning the block's text in the content;
 * - a `server_tool_use` block of the web search tool -> at its `content_block_stop`, one
 *   `delta.web_search_calls: [{id, query}]` (its input from `input_json_delta`s); search results are left out;
 * - `ping`, other server tool blocks and unknown events are skipped;
 * - an `error` event throws its GatewayError ({@link mapAnthropicStreamError}: `overloaded_error` -> 503...), which the
 *   gateway sends as one OpenAI-shaped error event before ending the stream.
 * Throws 502 `upstream_invalid_response` for malformed events or a stream that ends before `message_stop`, 502/504
 * when the connection breaks or stalls, and the abort reason when `options.signal` aborts.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* convertAnthropicStream(
  events: AsyncIterable<ServerSentEvent>,
  options: AnthropicStreamOptions,
): AsyncGenerator<ChatCompletionChunk> {
  try {
    yield* convertEvents(events, options);
  } catch (error) {
    throw GatewayError.isInstance(error) ? error : mapTransportError(options.provider, error, options.signal);
  }
}
