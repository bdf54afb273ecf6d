import { randomBytes } from 'node:crypto';
import type { ChatCompletion } from '@switchyard/core';
import {
  type AnthropicContentBlock,
  type AnthropicMessage,
  toAnthropicUsage,
  toStopReason,
} from './anthropic-message.js';
import { citedSources, toWebSearchBlocks, toWebSearchCitations } from './web-search-blocks.js';

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
 * from `reasoning_details` when there is one), each web search (`web_search_calls`) -> `server_tool_use` and
 * `web_search_tool_result` blocks (the cited sources in the first result), text -> a `text` block (its `url_citation`
 * annotations as `web_search_result_location` citations), each tool call -> a `tool_use` block (arguments parsed into
 * `input`); `stop_reason` and usage converted (`server_tool_use.web_search_requests` = the number of searches). `model` is the model id the client sent.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertChatCompletion(completion: ChatCompletion, model: string): AnthropicMessage {
  const choice = completion.choices[0];
  const message = choice?.message as
    | (ChatCompletion['choices'][number]['message'] & {
        reasoning_content?: string | null;
        reasoning_details?: { signature?: string }[];
      })
    | undefined;
  const content: AnthropicContentBlock[] = [];
  if (message?.reasoning_content)
    content.push({
      type: 'thinking',
      thinking: message.reasoning_content,
      signature: message.reasoning_details?.find((d) => d.signature)?.signature ?? '',
    });
  const citations = toWebSearchCitations(message?.annotations, message?.content ?? '');
  const searches = message?.web_search_calls ?? [];
  for (const [i, search] of searches.entries())
    content.push(...toWebSearchBlocks(search, i === 0 ? citedSources(citations) : []));
  if (message?.content)
    content.push({ type: 'text', text: message.content, ...(citations.length > 0 && { citations }) });
  for (const call of message?.tool_calls ?? [])
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseToolInput(call.function.arguments),
    });
  return {
    id: newMessageId(),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: toStopReason(choice?.finish_reason) ?? 'end_turn',
    stop_sequence: null,
    usage: {
      ...toAnthropicUsage(completion.usage),
      ...(searches.length > 0 && { server_tool_use: { web_search_requests: searches.length } }),
    },
  };
}
