import type { ChatCompletionRequest, GatewayWarning } from '@switchyard/core';
import type { AnthropicMessagesRequest } from './anthropic-types.js';
import { applyAnthropicReasoning } from './apply-anthropic-reasoning.js';
import { checkUnsupportedParameters } from './check-unsupported-parameters.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { convertToAnthropicTools } from './convert-to-anthropic-tools.js';
import { webSearchTool } from './web-search-tool.js';
import { type MaxTokensDefaults, resolveMaxTokens } from './resolve-max-tokens.js';

/** A translated request: the Messages API body plus what the answer's translation needs to know. */
export interface PreparedAnthropicRequest {
  /** The `POST /v1/messages` body for one choice (`n` is run as several requests). */
  body: AnthropicMessagesRequest;
  /** True when the answer comes through the JSON response tool and must become `message.content`. */
  jsonMode: boolean;
  /** Dropped parameters, for `context.warn` (see {@link checkUnsupportedParameters}). */
  warnings: GatewayWarning[];
}

/**
 * OpenAI chat request -> Anthropic Messages request:
 * - parameters Anthropic cannot honour: rejected or dropped with a warning, per {@link checkUnsupportedParameters};
 * - `messages` -> `system` + alternating `messages` ({@link convertToAnthropicMessages});
 * - `max_tokens` always sent ({@link resolveMaxTokens}: the request's, else the model's configured default, else 4,096);
 * - `stop` (a string or up to 4) -> `stop_sequences`; `temperature` (0..1) and `top_p` as they are; `top_k` (an
 *   extension some clients send) as it is; `user` -> `metadata.user_id`; `stream: true` -> `stream: true`
 *   (`stream_options` is OpenAI's only: Anthropic streams always report usage);
 * - `tools`, `tool_choice`, `parallel_tool_calls` and JSON `response_format` -> `tools` + `tool_choice`
 *   ({@link convertToAnthropicTools});
 * - `web_search_options` -> Anthropic's web search server tool, added to `tools` ({@link webSearchTool});
 * - `reasoning_effort`, or the client's own `thinking` / `output_config` -> thinking ({@link applyAnthropicReasoning}).
 * Pure; throws 400 GatewayErrors naming the offending field.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertToAnthropicRequest(
  request: ChatCompletionRequest,
  defaults: MaxTokensDefaults = {},
): PreparedAnthropicRequest {
  const warnings = checkUnsupportedParameters(request);
  const { system, messages } = convertToAnthropicMessages(request.messages);
  const { tools, tool_choice, jsonMode } = convertToAnthropicTools(request);
  const body: AnthropicMessagesRequest = {
    model: request.model,
    messages,
    max_tokens: resolveMaxTokens(request, defaults),
  };
  if (system) body.system = system;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stop?.length) body.stop_sequences = stop;
  if (request.temperature != null) body.temperature = request.temperature;
  if (request.top_p != null) body.top_p = request.top_p;
  const topK = (request as { top_k?: number | null }).top_k;
  if (topK != null) body.top_k = topK;
  if (request.stream) body.stream = true;
  if (request.user) body.metadata = { user_id: request.user };
  const search = webSearchTool(request, warnings);
  if (tools || search) body.tools = [...(tools ?? []), ...(search ? [search] : [])];
  if (tool_choice) body.tool_choice = tool_choice;
  warnings.push(...applyAnthropicReasoning(request, body));
  return { body, jsonMode, warnings };
}
