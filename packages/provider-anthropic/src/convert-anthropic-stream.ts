import {
  type ChatCompletionChunk,
  type FinishReason,
  GatewayError,
  mapTransportError,
  type ServerSentEvent,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import type { AnthropicUsage } from './anthropic-response-schemas.js';
import { JSON_RESPONSE_TOOL_NAME } from './json-response-tool.js';
import { mapAnthropicStreamError } from './map-anthropic-error.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicUsage, mergeAnthropicUsage } from './map-anthropic-usage.js';
import { parseAnthropicStreamEvent } from './parse-anthropic-stream-event.js';
import { thinkingDetail } from './thinking-detail.js';
import { webSearchCitations } from './web-search-citations.js';
import { WEB_SEARCH_TOOL_NAME, webSearchCallOf } from './web-search-tool.js';

/** Options of {@link convertAnthropicStream}. */
export interface AnthropicStreamOptions {
  /** The provider's name from config, for error messages. */
  provider: string;
  /** The call's abort signal: an abort while reading is rethrown as its reason. */
  signal: AbortSignal;
  /** The choice index the chunks carry (n > 1 runs one stream per choice). Default 0. */
  choiceIndex?: number;
  /** Overrides the chunk id (so that merged streams share one). Default: Anthropic's message id. */
  id?: string;
  /** The request asked for JSON through the JSON response tool: its arguments stream as content, text is left out. */
  jsonMode?: boolean;
  /**
   * In JSON mode, stream text blocks as content too: the JSON tool was only offered (thinking forbids forcing it), so
   * the model may answer in text. Default false.
   */
  jsonText?: boolean;
  /** Secrets (the API key) redacted from error messages. */
  secrets?: readonly (string | undefined)[];
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function* convertEvents(
  events: AsyncIterable<ServerSentEvent>,
  options: AnthropicStreamOptions,
): AsyncGenerator<ChatCompletionChunk> {
  const index = options.choiceIndex ?? 0;
  const created = Math.floor(Date.now() / 1000);
  let messageId: string | undefined;
  let model = '';
  let usage: AnthropicUsage = {};
  let finishSent = false;
  /** Anthropic block index -> OpenAI tool call index (OpenAI counts tool calls, Anthropic counts every block). */
  const toolIndexByBlock = new Map<number, number>();
  const jsonBlocks = new Set<number>();
  /** Open thinking blocks by Anthropic block index: their text and signature so far. */
  const thinking = new Map<number, { text: string; signature: string; started: boolean }>();
  let detailCount = 0;
  /** Open web search `server_tool_use` blocks by Anthropic block index: the block and its input JSON so far. */
  const searches = new Map<number, { id: unknown; json: string }>();
  /** Length of the content sent so far (UTF-16), and the open text blocks: where each starts, its text and citations. */
  let contentLength = 0;
  const texts = new Map<number, { start: number; text: string; citations: unknown[] }>();
  const content = (piece: string, block?: number) => {
    contentLength += piece.length;
    const open = block === undefined ? undefined : texts.get(block);
    if (open) open.text += piece;
    return chunk({ content: piece });
  };
  let reasoningSent = false;
  /** A reasoning_content piece; the first piece of a later thinking block starts with a blank line, as in answers. */
  const reasoningPiece = (block: { started: boolean }, text: string) => {
    const piece = !block.started && reasoningSent ? `\n\n${text}` : text;
    block.started = true;
    reasoningSent = true;
    return chunk({ reasoning_content: piece });
  };
  const chunk = (
    delta: ChatCompletionChunk['choices'][number]['delta'],
    finishReason: FinishReason | null = null,
  ): ChatCompletionChunk => ({
    id: options.id ?? messageId ?? '',
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index, delta, finish_reason: finishReason, logprobs: null }],
  });
  const finishReason = (stopReason: string | null | undefined): FinishReason => {
    const mapped = mapAnthropicStopReason(stopReason);
    // In JSON mode a call of the JSON tool alone is the answer, not a tool call.
    return mapped === 'tool_calls' && toolIndexByBlock.size === 0 ? 'stop' : mapped;
  };

  for await (const sse of events) {
    const event = parseAnthropicStreamEvent(sse.data, options.provider);
    if (!event || event.type === 'ping') continue;
    if (event.type === 'error') throw mapAnthropicStreamError(options.provider, event.error, options.secrets);
    if (event.type === 'message_start') {
      if (messageId === event.message.id) continue; // a repeated message_start of the open message
      if (messageId !== undefined)
        throw upstreamInvalidResponseError(options.provider, 'a second message started before the first one ended.');
      messageId = event.message.id;
      model = event.message.model;
      usage = mergeAnthropicUsage({}, event.message.usage);
      yield chunk({ role: 'assistant', content: '' });
      continue;
    }
    if (messageId === undefined)
      throw upstreamInvalidResponseError(options.provider, `a '${event.type}' event came before message_start.`);
    switch (event.type) {
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'thinking') {
          const open = {
            text: typeof block.thinking === 'string' ? block.thinking : '',
            signature: typeof block.signature === 'string' ? block.signature : '',
            started: false,
          };
          thinking.set(event.index, open);
          if (open.text) yield reasoningPiece(open, open.text);
        } else if (block.type === 'redacted_thinking') {
          const detail = thinkingDetail(block, detailCount);
          if (detail) {
            detailCount++;
            yield chunk({ reasoning_details: [detail] });
          }
        } else if (block.type === 'server_tool_use' && block.name === WEB_SEARCH_TOOL_NAME) {
          const input =
            block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0
              ? JSON.stringify(block.input)
              : '';
          searches.set(event.index, { id: block.id, json: input });
        } else if (block.type === 'tool_use' && options.jsonMode && block.name === JSON_RESPONSE_TOOL_NAME)
          jsonBlocks.add(event.index);
        else if (block.type === 'tool_use') {
          const toolIndex = toolIndexByBlock.size;
          toolIndexByBlock.set(event.index, toolIndex);
          yield chunk({
            tool_calls: [
              { index: toolIndex, id: block.id!, type: 'function', function: { name: block.name!, arguments: '' } },
            ],
          });
        } else if (block.type === 'text' && (!options.jsonMode || options.jsonText)) {
          texts.set(event.index, { start: contentLength, text: '', citations: [...(block.citations ?? [])] });
          if (block.text) yield content(block.text, event.index);
        }
        break;
      }
      case 'content_block_delta': {
        const { delta } = event;
        const open = thinking.get(event.index);
        if (open && delta.type === 'thinking_delta' && delta.thinking) {
          open.text += delta.thinking;
          yield reasoningPiece(open, delta.thinking);
        } else if (open && delta.type === 'signature_delta' && delta.signature) open.signature += delta.signature;
        else if (delta.type === 'text_delta' && delta.text && (!options.jsonMode || options.jsonText))
          yield content(delta.text, event.index);
        else if (delta.type === 'citations_delta' && delta.citation !== undefined)
          texts.get(event.index)?.citations.push(delta.citation);
        else if (delta.type === 'input_json_delta' && delta.partial_json && searches.has(event.index))
          searches.get(event.index)!.json += delta.partial_json;
        else if (delta.type === 'input_json_delta' && delta.partial_json) {
          if (jsonBlocks.has(event.index)) yield content(delta.partial_json);
          const toolIndex = toolIndexByBlock.get(event.index);
          if (toolIndex !== undefined)
            yield chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] });
        }
        break;
      }
      case 'content_block_stop': {
        const text = texts.get(event.index);
        if (text) {
          texts.delete(event.index);
          const annotations = webSearchCitations(text.citations, text.start, text.text);
          if (annotations.length > 0) yield chunk({ annotations });
        }
        const search = searches.get(event.index);
        if (search) {
          searches.delete(event.index);
          const call = webSearchCallOf({
            type: 'server_tool_use',
            id: search.id,
            name: WEB_SEARCH_TOOL_NAME,
            input: parseJson(search.json),
          });
          if (call) yield chunk({ web_search_calls: [call] });
        }
        const open = thinking.get(event.index);
        if (open) {
          thinking.delete(event.index);
          const detail = thinkingDetail(
            { type: 'thinking', thinking: open.text, signature: open.signature || null },
            detailCount++,
          );
          yield chunk({ reasoning_details: [detail!] });
        }
        break;
      }
      case 'message_delta':
        usage = mergeAnthropicUsage(usage, event.usage);
        if (event.delta.stop_reason != null && !finishSent) {
          finishSent = true;
          yield chunk({}, finishReason(event.delta.stop_reason));
        }
        break;
      case 'message_stop':
        if (!finishSent) yield chunk({}, finishReason(null));
        yield {
          id: options.id ?? messageId,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [],
          usage: mapAnthropicUsage(usage),
        };
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
