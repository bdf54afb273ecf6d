import { type ChatCompletionRequest, invalidRequestError } from '@switchyard/core';
import type { AnthropicMessagesRequest, AnthropicTool, AnthropicToolChoice } from './anthropic-types.js';
import { checkUnsupportedParameters } from './check-unsupported-parameters.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/** Where `max_tokens` comes from when the request has none. */
export interface MaxTokensDefaults {
  /** Per upstream model id, tokens. */
  byModel?: Record<string, number>;
  /** Fallback for every model, tokens. Default {@link DEFAULT_MAX_TOKENS}. */
  fallback?: number;
}

/** `max_tokens` sent when neither the request nor the config gives one: 4,096 tokens (every Claude model allows it). */
export const DEFAULT_MAX_TOKENS = 4096;

function convertToolChoice(request: ChatCompletionRequest): AnthropicToolChoice | undefined {
  const choice = request.tool_choice as string | { type: 'function'; function: { name: string } } | undefined;
  const disable = request.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return request.parallel_tool_calls === false && request.tools?.length ? { type: 'auto', ...disable } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...disable };
  if (choice === 'required') return { type: 'any', ...disable };
  if (typeof choice === 'object' && choice.function?.name) return { type: 'tool', name: choice.function.name, ...disable };
  throw invalidRequestError('Unsupported tool_choice.', 'tool_choice');
}

/**
 * OpenAI chat request -> Anthropic Messages request (one choice; `n` is handled by running several). `max_tokens`
 * (or `max_completion_tokens`) is always sent: the request's, else the per-model default, else the fallback.
 * `stop` -> `stop_sequences`, `user` -> `metadata.user_id`, `tools` -> `{name, description, input_schema}`,
 * `tool_choice` auto/none/required/named -> auto/none/any/tool, `parallel_tool_calls: false` ->
 * `disable_parallel_tool_use`. Throws 400 per {@link checkUnsupportedParameters} and for bad messages.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertToAnthropicRequest(request: ChatCompletionRequest, defaults: MaxTokensDefaults = {}): AnthropicMessagesRequest {
  checkUnsupportedParameters(request);
  const { system, messages } = convertToAnthropicMessages(request.messages);
  const body: AnthropicMessagesRequest = {
    model: request.model,
    messages,
    max_tokens: request.max_completion_tokens ?? request.max_tokens ?? defaults.byModel?.[request.model] ?? defaults.fallback ?? DEFAULT_MAX_TOKENS,
  };
  if (system) body.system = system;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stop?.length) body.stop_sequences = stop;
  if (request.temperature != null) body.temperature = request.temperature;
  if (request.top_p != null) body.top_p = request.top_p;
  const topK = (request as { top_k?: number }).top_k;
  if (typeof topK === 'number') body.top_k = topK;
  if (request.stream) body.stream = true;
  if (request.user) body.metadata = { user_id: request.user };
  if (request.tools?.length) {
    body.tools = request.tools.map(
      (tool): AnthropicTool => ({
        name: tool.function.name,
        ...(tool.function.description ? { description: tool.function.description } : {}),
        input_schema: (tool.function.parameters as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
      }),
    );
  }
  const toolChoice = convertToolChoice(request);
  if (toolChoice && body.tools) body.tool_choice = toolChoice;
  return body;
}
