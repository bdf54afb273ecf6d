import type { AnthropicWebSearchTool } from './web-search-tool.js';
/**
 * The request shapes of Anthropic's Messages API this adapter sends (plain interfaces; answers are validated with the
 * zod schemas in `anthropic-response-schemas.ts`).
 * @see https://docs.anthropic.com/en/api/messages
 */

/** A source of an image or document block: base64 bytes with their media type, a URL, or plain text. */
export type AnthropicSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: 'text/plain'; data: string };

/**
 * A prompt-caching breakpoint, passed through from the client's content part or tool (`{type:"ephemeral", ttl?}`).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
export type AnthropicCacheControl = { type: string; ttl?: string; [key: string]: unknown };

/** A content block of a request message; `cache_control` marks a prompt-caching breakpoint. */
export type AnthropicContentBlock = (
  | { type: 'text'; text: string }
  | { type: 'image'; source: AnthropicSource }
  | { type: 'document'; source: AnthropicSource; title?: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content?: string | { type: 'text'; text: string; cache_control?: AnthropicCacheControl }[];
      is_error?: boolean;
    }
  /** A thinking block of an earlier answer, sent back unchanged with its signature (multi-turn tool use). */
  | { type: 'thinking'; thinking: string; signature: string }
  /** A redacted thinking block of an earlier answer, sent back unchanged. */
  | { type: 'redacted_thinking'; data: string }
) & { cache_control?: AnthropicCacheControl };

/**
 * Extended thinking: `enabled` with `budget_tokens` (at least 1,024, below `max_tokens`), `adaptive` (the model
 * decides, steered by `output_config.effort`; Claude Opus/Sonnet 4.6 and later) or `disabled`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
export type AnthropicThinking =
  | { type: 'enabled'; budget_tokens: number }
  | { type: 'adaptive' }
  | { type: 'disabled' }
  | Record<string, unknown>;

/** One message: Anthropic has only the `user` and `assistant` roles, and they must alternate. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

/** A client tool: `input_schema` is a JSON Schema whose root is an object. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

/**
 * `tool_choice`: `auto` (may call tools), `any` (must call one), `tool` (must call `name`), `none` (must not).
 * `disable_parallel_tool_use: true` limits the answer to at most one (`auto`) or exactly one (`any`, `tool`) call.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#forcing-tool-use
 */
export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

/** `POST /v1/messages` body. */
export interface AnthropicMessagesRequest {
  model: string;
  messages: AnthropicMessage[];
  /** Required by Anthropic: the most output tokens. */
  max_tokens: number;
  /** The system prompt (OpenAI `system` and `developer` messages); text blocks when a part carries `cache_control`. */
  system?: string | { type: 'text'; text: string; cache_control?: AnthropicCacheControl }[];
  stop_sequences?: string[];
  /** 0..1. */
  temperature?: number;
  /** 0..1. */
  top_p?: number;
  /** Positive integer. */
  top_k?: number;
  stream?: boolean;
  /** The client's tools, and Anthropic's web search server tool when chat's `web_search_options` is set. */
  tools?: (AnthropicTool | AnthropicWebSearchTool)[];
  tool_choice?: AnthropicToolChoice;
  /** `user_id`: an opaque id of the end user (OpenAI `user`). */
  metadata?: { user_id?: string };
  /** Extended thinking (from `reasoning_effort`, or the client's own `thinking`). */
  thinking?: AnthropicThinking;
  /** `effort` (`low`, `medium`, `high`, `max`) for adaptive thinking, or the client's own `output_config`. */
  output_config?: Record<string, unknown>;
}
