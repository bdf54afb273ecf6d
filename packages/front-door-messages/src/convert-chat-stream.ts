import type { ChatCompletionChunk, CompletionUsage, FinishReason } from '@switchyard/core';
import { toAnthropicError } from './anthropic-error.js';
import { toAnthropicUsage, toStopReason } from './anthropic-message.js';
import { newMessageId } from './convert-chat-completion.js';
import { encodeAnthropicEvent } from './encode-anthropic-event.js';
import { toWebSearchBlocks, toWebSearchCitations } from './web-search-blocks.js';

type Delta = ChatCompletionChunk['choices'][number]['delta'] & {
  reasoning_content?: string | null;
  reasoning_details?: { signature?: string }[];
};

/**
 * Chat chunks -> Anthropic's stream, as SSE text: `message_start`, `ping`, then per content block
 * `content_block_start`, `content_block_delta` (`thinking_delta` from `reasoning_content`, `text_delta`,
 * `input_json_delta` for tool arguments; `citations_delta` for each `url_citation` of `delta.annotations` while a text
 * block is open, as a `web_search_result_location`), `content_block_stop`; each web search (`delta.web_search_calls`)
 * as a `server_tool_use` block (its input in one `input_json_delta`) and an empty `web_search_tool_result` block; then
 * `message_delta` (stop reason, usage, `server_tool_use.web_search_requests` when searches ran) and
 * `message_stop`. When the chunk stream fails, one `error` event ends the stream instead (it never throws).
 * `onUsage` gets the last chat usage seen (for metering). `model` is the model id the client sent.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* convertChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  model: string,
): AsyncGenerator<string> {
  const usageZero = toAnthropicUsage(undefined);
  yield encodeAnthropicEvent({
    type: 'message_start',
    message: {
      id: newMessageId(),
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usageZero,
    },
  } as { type: string });
  yield encodeAnthropicEvent({ type: 'ping' });
  let index = -1;
  let open: 'thinking' | 'text' | 'tool_use' | 'server_tool_use' | 'web_search_tool_result' | undefined;
  /** The text content so far (citations quote their span of it), and how many web searches ran. */
  let text = '';
  let searches = 0;
  let openTool: number | undefined;
  let signature = '';
  let finish: FinishReason | null | undefined;
  let usage: Partial<CompletionUsage> | undefined;

  function* stop(): Generator<string> {
    if (open === undefined) return;
    if (open === 'thinking' && signature)
      yield encodeAnthropicEvent({
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature },
      } as { type: string });
    yield encodeAnthropicEvent({ type: 'content_block_stop', index } as { type: string });
    open = undefined;
    openTool = undefined;
  }
  function* start(kind: NonNullable<typeof open>, block: Record<string, unknown>): Generator<string> {
    yield* stop();
    index++;
    open = kind;
    yield encodeAnthropicEvent({ type: 'content_block_start', index, content_block: block } as { type: string });
  }
  const delta = (d: Record<string, unknown>) =>
    encodeAnthropicEvent({ type: 'content_block_delta', index, delta: d } as { type: string });

  try {
    for await (const chunk of chunks) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices.find((c) => c.index === 0);
      if (!choice) continue;
      const d = choice.delta as Delta;
      for (const detail of d.reasoning_details ?? []) if (detail.signature) signature = detail.signature;
      if (d.reasoning_content) {
        if (open !== 'thinking') yield* start('thinking', { type: 'thinking', thinking: '', signature: '' });
        yield delta({ type: 'thinking_delta', thinking: d.reasoning_content });
      }
      if (d.content) {
        if (open !== 'text') yield* start('text', { type: 'text', text: '' });
        yield delta({ type: 'text_delta', text: d.content });
        text += d.content;
      }
      if (open === 'text')
        for (const citation of toWebSearchCitations(d.annotations, text))
          yield delta({ type: 'citations_delta', citation });
      for (const search of d.web_search_calls ?? []) {
        const [use, result] = toWebSearchBlocks(search, []);
        searches++;
        yield* start('server_tool_use', { ...use, input: {} });
        yield delta({ type: 'input_json_delta', partial_json: JSON.stringify(use.input) });
        yield* start('web_search_tool_result', result);
        yield* stop();
      }
      for (const call of d.tool_calls ?? []) {
        if (open !== 'tool_use' || openTool !== call.index) {
          yield* start('tool_use', {
            type: 'tool_use',
            id: call.id ?? `toolu_${newMessageId().slice(4)}`,
            name: call.function?.name ?? '',
            input: {},
          });
          openTool = call.index;
        }
        if (call.function?.arguments) yield delta({ type: 'input_json_delta', partial_json: call.function.arguments });
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  } catch (error) {
    yield encodeAnthropicEvent(toAnthropicError(error).body);
    return;
  }
  yield* stop();
  const finalUsage = {
    ...toAnthropicUsage(usage),
    ...(searches > 0 && { server_tool_use: { web_search_requests: searches } }),
  };
  yield encodeAnthropicEvent({
    type: 'message_delta',
    delta: { stop_reason: toStopReason(finish) ?? 'end_turn', stop_sequence: null },
    usage: finalUsage,
  } as { type: string });
  yield encodeAnthropicEvent({ type: 'message_stop' });
}
