import type { CompletionUsage, FinishReason } from '@switchyard/core';
import type { WebSearchBlocks, WebSearchCitation } from './web-search-blocks.js';

/** A content block of an answer: text (with web search citations), tool use, thinking, or a web search and its result. */
export type AnthropicContentBlock =
  | { type: 'text'; text: string; citations?: WebSearchCitation[] }
  | WebSearchBlocks[number]
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string };

/** Usage of a message, tokens: `input_tokens` excludes cache reads and writes, which have their own fields. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Server tools the upstream ran: `web_search_requests`, the number of web searches (set when there was one). */
  server_tool_use?: { web_search_requests: number };
}

/**
 * Anthropic's `message` object, as `POST /v1/messages` answers it.
 * @see https://docs.anthropic.com/en/api/messages
 */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal' | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
}

/** Chat `finish_reason` -> Anthropic `stop_reason`: stop -> end_turn, length -> max_tokens, tool_calls -> tool_use, content_filter -> refusal. */
export function toStopReason(finish: FinishReason | null | undefined): AnthropicMessage['stop_reason'] {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    case 'stop':
      return 'end_turn';
    default:
      return finish === undefined || finish === null ? null : 'end_turn';
  }
}

/**
 * Chat usage -> Anthropic usage (tokens): cached prompt tokens become `cache_read_input_tokens`, cache writes
 * (`prompt_tokens_details.cache_write_tokens`) `cache_creation_input_tokens`, and `input_tokens` is the rest.
 */
export function toAnthropicUsage(usage: Partial<CompletionUsage> | null | undefined): AnthropicUsage {
  const details = (usage?.prompt_tokens_details ?? {}) as { cached_tokens?: number; cache_write_tokens?: number };
  const read = details.cached_tokens ?? 0;
  const write = details.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - read - write),
    output_tokens: usage?.completion_tokens ?? 0,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  };
}

/** Anthropic usage -> chat usage (tokens), for metering answers passed through from Anthropic. */
export function toChatUsage(usage: Partial<AnthropicUsage> | null | undefined): CompletionUsage {
  const read = usage?.cache_read_input_tokens ?? 0;
  const write = usage?.cache_creation_input_tokens ?? 0;
  const prompt = (usage?.input_tokens ?? 0) + read + write;
  const completion = usage?.output_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: read, cache_write_tokens: write },
  };
}
