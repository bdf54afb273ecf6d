import { randomBytes } from 'node:crypto';
import type { ChatCompletion } from '@switchyard/core';
import { type AnthropicContentBlock, type AnthropicMessage, toAnthropicUsage, toStopReason } from './anthropic-message.js';

/** A new message id in Anthropic's style: `msg_` plus 24 random base62-ish characters. */
export function newMessageId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`;
}

/** Parses tool arguments (a JSON string) into `input`; text that is not a JSON object becomes `{}`. */
export function parseToolInput(args: string): unknown {
  try {
    const value = JSON.parse(args || '{}') as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * A chat completion -> Anthropic's `message`: reasoning (`reasoning_content`) -> a `thinking` block (with the signature
 * from `reasoning_details` when there is one), text -> a `text` block, each tool call -> a `tool_use` block (arguments
 * parsed into `input`); `stop_reason` and usage converted. `model` is the model id the client sent.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertChatCompletion(completion: ChatCompletion, model: string): AnthropicMessage {
  const choice = completion.choices[0];
  const message = choice?.message as (ChatCompletion['choices'][number]['message'] & { reasoning_content?: string | null; reasoning_details?: { signature?: string }[] }) | undefined;
  const content: AnthropicContentBlock[] = [];
  if (message?.reasoning_content) content.push({ type: 'thinking', thinking: message.reasoning_content, signature: message.reasoning_details?.find((d) => d.signature)?.signature ?? '' });
  if (message?.content) content.push({ type: 'text', text: message.content });
  for (const call of message?.tool_calls ?? []) content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseToolInput(call.function.arguments) });
  return {
    id: newMessageId(),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: toStopReason(choice?.finish_reason) ?? 'end_turn',
    stop_sequence: null,
    usage: toAnthropicUsage(completion.usage),
  };
}
