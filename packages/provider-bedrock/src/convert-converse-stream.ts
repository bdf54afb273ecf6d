import type { Message } from '@smithy/eventstream-codec';
import { eventStreamHeader } from './event-stream-header.js';
import {
  type ChatCompletionChunk,
  GatewayError,
  mapTransportError,
  readUpstreamEvent,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { bedrockReasoningDetail } from './bedrock-reasoning.js';
import type { z } from 'zod';
import { type ConverseStreamEvents, type ConverseUsage, converseStreamEventSchemas } from './bedrock-api.js';
import { mapBedrockStreamException } from './map-bedrock-stream-exception.js';
import { mapConverseStopReason } from './map-converse-stop-reason.js';
import { mapConverseUsage } from './map-converse-usage.js';

const decoder = new TextDecoder();

/** Options of {@link convertConverseStream}. */
export interface ConverseStreamOptions {
  provider: string;
  model: string;
  /** The chunk id: `chatcmpl-<this>`. */
  requestId: string;
  signal: AbortSignal;
  secrets: readonly (string | undefined)[];
}

/** Open reasoning blocks by contentBlockIndex: text, signature and redacted content so far. */
type ReasoningBlocks = Map<number, { text: string; signature: string; redacted?: string }>;
type ReasoningDelta = NonNullable<NonNullable<ConverseStreamEvents['contentBlockDelta']['delta']>['reasoningContent']>;

/** Adds a `reasoningContent` delta to its open block; returns its text piece to stream (empty when it has none). */
function addReasoning(blocks: ReasoningBlocks, index: number, reasoning: ReasoningDelta): string {
  const open = blocks.get(index) ?? { text: '', signature: '' };
  blocks.set(index, open);
  if (reasoning.signature) open.signature += reasoning.signature;
  if (typeof reasoning.redactedContent === 'string') open.redacted = (open.redacted ?? '') + reasoning.redactedContent;
  if (reasoning.text) open.text += reasoning.text;
  return reasoning.text ?? '';
}

/** Closes reasoning block `index`: its content as Bedrock's reasoning block (redacted, or text and signature), if open. */
function closeReasoning(blocks: ReasoningBlocks, index: number) {
  const open = blocks.get(index);
  if (!open) return undefined;
  blocks.delete(index);
  return open.redacted !== undefined
    ? { redactedContent: open.redacted }
    : { reasoningText: { text: open.text, ...(open.signature ? { signature: open.signature } : {}) } };
}

/** The delta opening tool call `index` of a `toolUse` block start: its id and name, no arguments yet. */
function toolCallStart(index: number, toolUse: { toolUseId: string; name: string }) {
  return {
    tool_calls: [{ index, id: toolUse.toolUseId, type: 'function', function: { name: toolUse.name, arguments: '' } }],
  };
}

async function* convertMessages(
  messages: AsyncIterable<Message>,
  options: ConverseStreamOptions,
): AsyncGenerator<ChatCompletionChunk> {
  const id = `chatcmpl-${options.requestId}`;
  const created = Math.floor(Date.now() / 1000);
  let started = false;
  // The first chunk carries the role, also when a stream starts without messageStart.
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk => {
    const withRole = started ? delta : { role: 'assistant', ...delta };
    started = true;
    return {
      id,
      object: 'chat.completion.chunk',
      created,
      model: options.model,
      choices: [{ index: 0, delta: withRole, finish_reason: finish }],
    } as ChatCompletionChunk;
  };
  const toolIndexByBlock = new Map<number, number>();
  /** Open reasoning blocks by contentBlockIndex: text, signature and redacted content so far. */
  const reasoningBlocks: ReasoningBlocks = new Map();
  let detailCount = 0;
  let stopReason: string | undefined;
  let usage: ConverseUsage | undefined;
  for await (const message of messages) {
    const messageType = eventStreamHeader(message, ':message-type');
    const payloadText = decoder.decode(message.body);
    if (messageType === 'exception' || messageType === 'error') {
      throw mapBedrockStreamException(options.provider, message, payloadText, options.secrets);
    }
    const type = eventStreamHeader(message, ':event-type');
    if (type === undefined || !Object.hasOwn(converseStreamEventSchemas, type)) continue; // events this adapter does not translate.
    const read = <K extends keyof ConverseStreamEvents>(name: K): ConverseStreamEvents[K] =>
      readUpstreamEvent(
        options.provider,
        converseStreamEventSchemas[name] as z.ZodType<ConverseStreamEvents[K]>,
        payloadText || '{}',
        `the '${name}' event`,
      );
    switch (type) {
      case 'messageStart':
        read('messageStart');
        if (!started) yield chunk({ content: '' });
        break;
      case 'contentBlockStart': {
        const { contentBlockIndex, start } = read('contentBlockStart');
        if (start?.toolUse) {
          const index = toolIndexByBlock.size;
          toolIndexByBlock.set(contentBlockIndex, index);
          yield chunk(toolCallStart(index, start.toolUse));
        }
        break;
      }
      case 'contentBlockDelta': {
        const { contentBlockIndex, delta } = read('contentBlockDelta');
        const reasoningText =
          delta?.reasoningContent && addReasoning(reasoningBlocks, contentBlockIndex, delta.reasoningContent);
        if (reasoningText) yield chunk({ reasoning_content: reasoningText });
        if (delta?.text) yield chunk({ content: delta.text });
        const input = delta?.toolUse?.input;
        const index = toolIndexByBlock.get(contentBlockIndex);
        if (input && index !== undefined) yield chunk({ tool_calls: [{ index, function: { arguments: input } }] });
        break;
      }
      case 'contentBlockStop': {
        const { contentBlockIndex } = read('contentBlockStop');
        const block = closeReasoning(reasoningBlocks, contentBlockIndex);
        if (block) yield chunk({ reasoning_details: [bedrockReasoningDetail(block, detailCount++)!] });
        break;
      }
      case 'messageStop':
        stopReason = read('messageStop').stopReason ?? 'end_turn';
        yield chunk({}, mapConverseStopReason(stopReason));
        break;
      case 'metadata':
        usage = read('metadata').usage ?? usage;
        break;
    }
  }
  if (stopReason === undefined)
    throw upstreamInvalidResponseError(options.provider, 'the stream ended before messageStop.');
  if (usage)
    yield {
      id,
      object: 'chat.completion.chunk',
      created,
      model: options.model,
      choices: [],
      usage: mapConverseUsage(usage),
    };
}

/**
 * ConverseStream event messages (decoded event-stream frames) -> OpenAI `chat.completion.chunk`s as they arrive:
 * `messageStart` -> a role chunk (without one, the first chunk carries the role); text deltas -> `content`; a `toolUse` block start -> a `tool_calls` entry (id, name,
 * `arguments: ""`; OpenAI `index` counts tool calls, Bedrock's `contentBlockIndex` counts all blocks) and its `input`
 * string fragments -> `arguments` fragments; `messageStop` -> the chunk with `finish_reason`; the trailing `metadata`
 * event -> one usage-only chunk (it may come after `messageStop`, so the stream is read to its end). Reasoning deltas
 * -> `delta.reasoning_content` pieces (before the answer's text), and at the reasoning block's `contentBlockStop` one
 * `delta.reasoning_details` entry with the whole text and its signature (or the redacted content). An exception frame (`:message-type: exception`, e.g. `throttlingException`, `modelStreamErrorException`)
 * throws its mapped GatewayError, never a clean end; an event whose payload is not JSON or not of the documented shape
 * (`converseStreamEventSchemas`) throws 502 `upstream_invalid_response`; a stream that ends before `messageStop`, or
 * breaks, throws 502/504.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export async function* convertConverseStream(
  messages: AsyncIterable<Message>,
  options: ConverseStreamOptions,
): AsyncGenerator<ChatCompletionChunk> {
  try {
    yield* convertMessages(messages, options);
  } catch (error) {
    if (GatewayError.isInstance(error)) throw error;
    const code =
      (error as { code?: unknown } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;
    if (code !== undefined || options.signal.aborted || (error as Error | null)?.name === 'AbortError')
      throw mapTransportError(options.provider, error, options.signal);
    throw upstreamInvalidResponseError(
      options.provider,
      `the event stream is corrupt: ${(error as Error).message}`,
      error,
    );
  }
}
