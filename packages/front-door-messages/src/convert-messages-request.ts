import {
  type ChatCompletionMessage,
  type ContentPart,
  type GatewayWarning,
  invalidRequestError,
} from '@switchyard/core';
import { convertMessagesTools } from './convert-messages-tools.js';
import { mapMessagesReasoning } from './map-messages-reasoning.js';
import type { MessageContentBlock, MessagesRequest } from './messages-request-schema.js';

/** The top-level fields {@link convertMessagesRequest} translates; any other one is dropped with a warning naming it. */
const HANDLED = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'metadata',
  'stream',
]);

/** The chat request plus what could not be carried over (sent as `x-switchyard-warning`). */
export interface ConvertedMessagesRequest {
  chatRequest: Record<string, unknown>;
  warnings: GatewayWarning[];
}

function imagePart(block: Extract<MessageContentBlock, { type: 'image' }>): ContentPart {
  const { source } = block;
  const url = source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.url;
  return { type: 'image_url', image_url: { url } };
}

function blockText(content: string | MessageContentBlock[]): string {
  return typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

function toolResultText(block: Extract<MessageContentBlock, { type: 'tool_result' }>): string {
  const text =
    typeof block.content === 'string' ? block.content : (block.content ?? []).map((c) => c.text ?? '').join('');
  return block.is_error ? `Error: ${text}` : text;
}

/**
 * An Anthropic Messages request -> the canonical chat completion request, for models that do not speak Anthropic's API:
 * `system` -> a system message; `role: "system"` entries of `messages` (Claude Code 2.1) -> system messages in place;
 * user text and image blocks -> content parts (base64 images as `data:` URLs); `tool_result` blocks -> `tool`
 * messages (before the rest of that user turn); assistant `tool_use` -> `tool_calls` (`input` JSON-encoded);
 * `max_tokens`, `stop_sequences` (-> `stop`, at most 4), `temperature`, `top_p`, `tools` ({@link convertMessagesTools}:
 * with `options.webSearch`, the web search server tool -> `web_search_options`),
 * `tool_choice` (`any` -> `required`, `tool` -> a named function, `disable_parallel_tool_use` -> `parallel_tool_calls:
 * false`), `thinking` and `output_config` ({@link mapMessagesReasoning}: `reasoning_effort`, `response_format`),
 * `metadata.user_id` -> `user`. Dropped with a warning (`x-switchyard-warning`), never a 400: `top_k`, cache control,
 * thinking blocks of earlier turns, Anthropic-only blocks (server tool results, MCP, search results...), server tools,
 * and every other top-level field (`context_management`, `container`, `mcp_servers`, `service_tier`...), each named.
 * Throws 400 naming the field for documents and more than 4 stop sequences.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://code.claude.com/docs/en/llm-gateway-protocol
 */
export function convertMessagesRequest(
  request: MessagesRequest,
  options: { webSearch?: boolean } = {},
): ConvertedMessagesRequest {
  const warnings: GatewayWarning[] = [];
  const warn = (code: string, message: string) => {
    if (!warnings.some((w) => w.code === code)) warnings.push({ code, message });
  };
  const dropBlock = (type: string) =>
    warn(`${type}_dropped`, `Blocks of type '${type}' exist on Anthropic models only; they were dropped.`);
  const messages: ChatCompletionMessage[] = [];
  if (Array.isArray(request.system) && request.system.some((b) => b.cache_control))
    warn('cache_control_dropped', 'cache_control applies to Anthropic models only; it was dropped.');
  if (request.system !== undefined) {
    const text = typeof request.system === 'string' ? request.system : request.system.map((b) => b.text).join('\n');
    if (text) messages.push({ role: 'system', content: text });
  }
  request.messages.forEach((message, m) => {
    const blocks: MessageContentBlock[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (blocks.some((b) => 'cache_control' in b && b.cache_control))
      warn('cache_control_dropped', 'cache_control applies to Anthropic models only; it was dropped.');
    if (message.role === 'system') {
      const text = blockText(message.content);
      if (text) messages.push({ role: 'system', content: text });
      return;
    }
    if (message.role === 'assistant') {
      let text = '';
      const calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
      for (const block of blocks) {
        if (block.type === 'text') text += block.text;
        else if (block.type === 'tool_use')
          calls.push({
            id: block.id,
            type: 'function',
            function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
          });
        else if (block.type === 'thinking' || block.type === 'redacted_thinking')
          warn(
            'thinking_dropped',
            'Thinking blocks of earlier turns are kept for Anthropic models only; they were dropped.',
          );
        else if (block.type === 'image' || block.type === 'tool_result' || block.type === 'document')
          throw invalidRequestError(
            `Blocks of type '${block.type}' are not allowed in assistant messages.`,
            `messages.${m}.content`,
          );
        else dropBlock(block.type);
      }
      messages.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      return;
    }
    const parts: ContentPart[] = [];
    blocks.forEach((block, b) => {
      if (block.type === 'tool_result')
        messages.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolResultText(block) });
      else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
      else if (block.type === 'image') parts.push(imagePart(block));
      else if (block.type === 'document' || block.type === 'tool_use')
        throw invalidRequestError(
          `Blocks of type '${block.type}' can only be sent to Anthropic models.`,
          `messages.${m}.content.${b}.type`,
        );
      else dropBlock(block.type);
    });
    if (parts.length > 0)
      messages.push({
        role: 'user',
        content: parts.every((p) => p.type === 'text')
          ? parts.map((p) => (p as { text: string }).text).join('')
          : parts,
      });
  });
  const body: Record<string, unknown> = { model: request.model, messages, max_tokens: request.max_tokens };
  if (request.stop_sequences?.length) {
    if (request.stop_sequences.length > 4)
      throw invalidRequestError('At most 4 stop sequences can be sent to this model.', 'stop_sequences');
    body.stop = request.stop_sequences;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.top_p !== undefined) body.top_p = request.top_p;
  if (request.top_k !== undefined) warn('top_k_dropped', 'top_k is not supported by this model; it was dropped.');
  if (request.tools?.length) {
    const { tools, webSearchOptions } = convertMessagesTools(request.tools, (w) => warnings.push(w), options.webSearch);
    if (tools.length) body.tools = tools;
    if (webSearchOptions) body.web_search_options = webSearchOptions;
  }
  const choice = request.tool_choice;
  if (choice) {
    if (choice.type === 'tool') body.tool_choice = { type: 'function', function: { name: choice.name ?? '' } };
    else body.tool_choice = choice.type === 'any' ? 'required' : choice.type;
    if (choice.disable_parallel_tool_use && body.tools) body.parallel_tool_calls = false;
    if (!body.tools) delete body.tool_choice;
  }
  warnings.push(...mapMessagesReasoning(request, body));
  for (const [name, value] of Object.entries(request)) {
    if (HANDLED.has(name) || value === undefined || value === null) continue;
    warnings.push({
      code: 'dropped_parameter',
      param: name,
      message: `'${name}' applies to Anthropic models only and was not sent`,
    });
  }
  if (request.metadata?.user_id) body.user = request.metadata.user_id;
  if (request.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return { chatRequest: body, warnings };
}
