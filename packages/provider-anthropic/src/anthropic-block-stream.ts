import type { ChatCompletionChunk, FinishReason } from '@switchyard/core';
import type { AnthropicStreamEvent } from './anthropic-response-schemas.js';
import type { AnthropicStreamOptions } from './anthropic-stream-options.js';
import { JSON_RESPONSE_TOOL_NAME } from './json-response-tool.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { thinkingDetail } from './thinking-detail.js';
import { webSearchCitations } from './web-search-citations.js';
import { WEB_SEARCH_TOOL_NAME, webSearchCallOf } from './web-search-tool.js';

type BlockEvent<T extends AnthropicStreamEvent['type']> = Extract<AnthropicStreamEvent, { type: T }>;
type Delta = ChatCompletionChunk['choices'][number]['delta'];

/** `text` parsed as JSON, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The content blocks of one Anthropic message being streamed, turned into OpenAI chunks (see `convertAnthropicStream`):
 * tool call indexes, the JSON tool's blocks, open thinking blocks, web searches and text blocks with their citations.
 */
export class AnthropicBlockStream {
  /** The message id (set by `message_start`) and model the chunks carry. */
  messageId: string | undefined;
  model = '';
  private readonly index: number;
  private readonly created = Math.floor(Date.now() / 1000);
  /** Anthropic block index -> OpenAI tool call index (OpenAI counts tool calls, Anthropic counts every block). */
  private readonly toolIndexByBlock = new Map<number, number>();
  private readonly jsonBlocks = new Set<number>();
  /** Open thinking blocks by Anthropic block index: their text and signature so far. */
  private readonly thinking = new Map<number, { text: string; signature: string; started: boolean }>();
  private detailCount = 0;
  /** Open web search `server_tool_use` blocks by Anthropic block index: the block and its input JSON so far. */
  private readonly searches = new Map<number, { id: unknown; json: string }>();
  /** Length of the content sent so far (UTF-16), and the open text blocks: where each starts, its text and citations. */
  private contentLength = 0;
  private readonly texts = new Map<number, { start: number; text: string; citations: unknown[] }>();
  private reasoningSent = false;

  constructor(private readonly options: AnthropicStreamOptions) {
    this.index = options.choiceIndex ?? 0;
  }

  /** A chunk of this choice with `delta` (and a finish reason). */
  chunk(delta: Delta, finishReason: FinishReason | null = null): ChatCompletionChunk {
    return {
      id: this.options.id ?? this.messageId ?? '',
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: this.index, delta, finish_reason: finishReason, logprobs: null }],
    };
  }

  /** The last, usage-only chunk. */
  usageChunk(usage: ChatCompletionChunk['usage']): ChatCompletionChunk {
    return {
      id: this.options.id ?? this.messageId ?? '',
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [],
      usage,
    };
  }

  /** The finish reason of `stopReason`: in JSON mode a call of the JSON tool alone is the answer, not a tool call. */
  finishReason(stopReason: string | null | undefined): FinishReason {
    const mapped = mapAnthropicStopReason(stopReason);
    return mapped === 'tool_calls' && this.toolIndexByBlock.size === 0 ? 'stop' : mapped;
  }

  private content(piece: string, block?: number): ChatCompletionChunk {
    this.contentLength += piece.length;
    const open = block === undefined ? undefined : this.texts.get(block);
    if (open) open.text += piece;
    return this.chunk({ content: piece });
  }

  /** A reasoning_content piece; the first piece of a later thinking block starts with a blank line, as in answers. */
  private reasoningPiece(block: { started: boolean }, text: string): ChatCompletionChunk {
    const piece = !block.started && this.reasoningSent ? `\n\n${text}` : text;
    block.started = true;
    this.reasoningSent = true;
    return this.chunk({ reasoning_content: piece });
  }

  /** The chunks of a `content_block_start`. */
  *blockStart(event: BlockEvent<'content_block_start'>): Generator<ChatCompletionChunk> {
    const _block = event.content_block;
    const block = event.content_block;
    if (block.type === 'thinking') {
      const open = {
        text: typeof block.thinking === 'string' ? block.thinking : '',
        signature: typeof block.signature === 'string' ? block.signature : '',
        started: false,
      };
      this.thinking.set(event.index, open);
      if (open.text) yield this.reasoningPiece(open, open.text);
    } else if (block.type === 'redacted_thinking') {
      const detail = thinkingDetail(block, this.detailCount);
      if (detail) {
        this.detailCount++;
        yield this.chunk({ reasoning_details: [detail] });
      }
    } else if (block.type === 'server_tool_use' && block.name === WEB_SEARCH_TOOL_NAME) {
      const input =
        block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0
          ? JSON.stringify(block.input)
          : '';
      this.searches.set(event.index, { id: block.id, json: input });
    } else if (block.type === 'tool_use' && this.options.jsonMode && block.name === JSON_RESPONSE_TOOL_NAME)
      this.jsonBlocks.add(event.index);
    else if (block.type === 'tool_use') {
      const toolIndex = this.toolIndexByBlock.size;
      this.toolIndexByBlock.set(event.index, toolIndex);
      yield this.chunk({
        tool_calls: [
          { index: toolIndex, id: block.id!, type: 'function', function: { name: block.name!, arguments: '' } },
        ],
      });
    } else if (block.type === 'text' && (!this.options.jsonMode || this.options.jsonText)) {
      this.texts.set(event.index, { start: this.contentLength, text: '', citations: [...(block.citations ?? [])] });
      if (block.text) yield this.content(block.text, event.index);
    }
  }

  /** The chunks of a `content_block_delta`. */
  *blockDelta(event: BlockEvent<'content_block_delta'>): Generator<ChatCompletionChunk> {
    const { delta } = event;
    const open = this.thinking.get(event.index);
    if (open && delta.type === 'thinking_delta' && delta.thinking) {
      open.text += delta.thinking;
      yield this.reasoningPiece(open, delta.thinking);
    } else if (open && delta.type === 'signature_delta' && delta.signature) open.signature += delta.signature;
    else if (delta.type === 'text_delta' && delta.text && (!this.options.jsonMode || this.options.jsonText))
      yield this.content(delta.text, event.index);
    else if (delta.type === 'citations_delta' && delta.citation !== undefined)
      this.texts.get(event.index)?.citations.push(delta.citation);
    else if (delta.type === 'input_json_delta' && delta.partial_json && this.searches.has(event.index))
      this.searches.get(event.index)!.json += delta.partial_json;
    else if (delta.type === 'input_json_delta' && delta.partial_json) {
      if (this.jsonBlocks.has(event.index)) yield this.content(delta.partial_json);
      const toolIndex = this.toolIndexByBlock.get(event.index);
      if (toolIndex !== undefined)
        yield this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] });
    }
  }

  /** The chunks of a `content_block_stop`: a text block's citations, a web search call, a thinking block's details. */
  *blockStop(event: BlockEvent<'content_block_stop'>): Generator<ChatCompletionChunk> {
    const text = this.texts.get(event.index);
    if (text) {
      this.texts.delete(event.index);
      const annotations = webSearchCitations(text.citations, text.start, text.text);
      if (annotations.length > 0) yield this.chunk({ annotations });
    }
    const search = this.searches.get(event.index);
    if (search) {
      this.searches.delete(event.index);
      const call = webSearchCallOf({
        type: 'server_tool_use',
        id: search.id,
        name: WEB_SEARCH_TOOL_NAME,
        input: parseJson(search.json),
      });
      if (call) yield this.chunk({ web_search_calls: [call] });
    }
    const open = this.thinking.get(event.index);
    if (open) {
      this.thinking.delete(event.index);
      const detail = thinkingDetail(
        { type: 'thinking', thinking: open.text, signature: open.signature || null },
        this.detailCount++,
      );
      yield this.chunk({ reasoning_details: [detail!] });
    }
  }
}
