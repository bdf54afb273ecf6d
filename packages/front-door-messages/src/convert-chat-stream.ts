import type { ChatCompletionChunk, CompletionUsage, FinishReason } from '@switchyard/core';
import { toAnthropicError } from './anthropic-error.js';
import { toAnthropicUsage, toStopReason } from './anthropic-message.js';
import { newMessageId } from './convert-chat-completion.js';
import { encodeAnthropicEvent } from './encode-anthropic-event.js';

type Delta = ChatCompletionChunk['choices'][number]['delta'] & { reasoning_content?: string | null; reasoning_details?: { signature?: string }[] };

/**
 * Chat chunks -> Anthropic's stream, as SSE text: `message_start`, `ping`, then per content block
 * `content_block_start`, `content_block_delta` (`thinking_delta` from `reasoning_content`, `text_delta`,
 * `input_json_delta` for tool arguments), `content_block_stop`; then `message_delta` (stop reason and usage) and
 * `message_stop`. When the chunk stream fails, one `error` event ends the stream instead (it never throws).
 * `onUsage` gets the last chat usage seen (for metering). `model` is the model id the client sent.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* convertChatStream(chunks: AsyncIterable<ChatCompletionChunk>, model: string): AsyncGenerator<string> {
  const usageZero = toAnthropicUsage(undefined);
  yield encodeAnthropicEvent({
    type: 'message_start',
    message: { id: newMessageId(), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: usageZero },
  } as { type: string });
  yield encodeAnthropicEvent({ type: 'ping' });
  let index = -1;
  let open: 'thinking' | 'text' | 'tool_use' | undefined;
  let openTool: number | undefined;
  let signature = '';
  let finish: FinishReason | null | undefined;
  let usage: Partial<CompletionUsage> | undefined;

  function* stop(): Generator<string> {
    if (open === undefined) return;
    if (open === 'thinking' && signature) yield encodeAnthropicEvent({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } } as { type: string });
    yield encodeAnthropicEvent({ type: 'content_block_stop', index } as { type: string });
    open = undefined;
    openTool = undefined;
  }
  function* start(kind: 'thinking' | 'text' | 'tool_use', block: Record<string, unknown>): Generator<string> {
    yield* stop();
    index++;
    open = kind;
    yield encodeAnthropicEvent({ type: 'content_block_start', index, content_block: block } as { type: string });
  }
  const delta = (d: Record<string, unknown>) => encodeAnthropicEvent({ type: 'content_block_delta', index, delta: d } as { type: string });

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
      }
      for (const call of d.tool_calls ?? []) {
        if (open !== 'tool_use' || openTool !== call.index) {
          yield* start('tool_use', { type: 'tool_use', id: call.id ?? `toolu_${newMessageId().slice(4)}`, name: call.function?.name ?? '', input: {} });
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
  yield encodeAnthropicEvent({ type: 'message_delta', delta: { stop_reason: toStopReason(finish) ?? 'end_turn', stop_sequence: null }, usage: toAnthropicUsage(usage) } as { type: string });
  yield encodeAnthropicEvent({ type: 'message_stop' });
}
