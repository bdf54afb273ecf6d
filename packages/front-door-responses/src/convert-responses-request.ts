import { type ChatCompletionMessage, type GatewayWarning, invalidRequestError } from '@switchyard/core';
import {
  type HostedToolSupport,
  convertResponsesToolChoice,
  convertResponsesTools,
} from './convert-responses-tools.js';
import type { ResponsesRequest } from './responses-request-schema.js';
import { ToolNameMap } from './responses-tool-names.js';

function convertFormat(format: NonNullable<ResponsesRequest['text']>['format']): unknown {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, schema, strict, description } = format as {
    name: string;
    schema: Record<string, unknown>;
    strict?: boolean | null;
    description?: string | null;
  };
  return {
    type: 'json_schema',
    json_schema: { name, schema, ...(strict != null ? { strict } : {}), ...(description ? { description } : {}) },
  };
}

const UNSUPPORTED_FIELDS = ['background', 'conversation', 'prompt'] as const;

/** Request fields chat completions has under the same name and meaning, passed on as they are when set. */
const SAME_NAME_FIELDS = [
  'prompt_cache_key',
  'safety_identifier',
  'service_tier',
  'presence_penalty',
  'frequency_penalty',
  'user',
] as const;

/** `include` values the translated route can honour (none of OpenAI's hosted-tool or encrypted outputs exist there). */
const HONOURED_INCLUDES = new Set<string>();

/** What {@link convertResponsesRequest} reports besides the chat body. */
export interface ConvertResponsesOptions {
  /** Filled with the function names declared upstream, to map calls back (namespaces, custom tools). */
  names?: ToolNameMap;
  /** Filled with what was dropped (hosted tools, `include` values, ...), for `x-switchyard-warning`. */
  warnings?: GatewayWarning[];
  /** Which hosted tools the serving provider can map (see `convertResponsesTools`). */
  hosted?: HostedToolSupport;
}

/**
 * A Responses request plus the conversation so far -> the canonical chat completion request body: `instructions`
 * becomes a leading system message, `history` (earlier turns, already chat messages) comes next, then `input`;
 * `max_output_tokens` -> `max_completion_tokens`, `text.format` -> `response_format`, `text.verbosity` ->
 * `verbosity`, `reasoning.effort` -> `reasoning_effort`; `prompt_cache_key`, `safety_identifier`, `service_tier`,
 * penalties and `user` keep their names (OpenAI-family upstreams read them; other adapters drop them with a warning);
 * tools as `convertResponsesTools` makes them (namespaces flattened, custom tools as one-string functions, hosted tools
 * mapped or dropped with a warning). `metadata`, `store`, `max_tool_calls` and `client_metadata` stay at the gateway;
 * `include` values it cannot honour are dropped with a warning.
 * Throws 400 naming the field for malformed tools and for `background`/`conversation`/`prompt`.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function convertResponsesRequest(
  request: ResponsesRequest,
  history: readonly ChatCompletionMessage[],
  input: readonly ChatCompletionMessage[],
  options: ConvertResponsesOptions = {},
): Record<string, unknown> {
  for (const field of UNSUPPORTED_FIELDS) {
    const value = (request as Record<string, unknown>)[field];
    if (value != null && value !== false)
      throw invalidRequestError(`'${field}' is not supported by this gateway.`, field, 'unsupported_parameter');
  }
  const warnings = options.warnings ?? [];
  const messages: ChatCompletionMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  messages.push(...history, ...input);
  const body: Record<string, unknown> = { model: request.model, messages };
  const converted = convertResponsesTools(request.tools, warnings, options.hosted, options.names ?? new ToolNameMap());
  if (converted.tools) body.tools = converted.tools;
  if (converted.webSearchOptions) body.web_search_options = converted.webSearchOptions;
  const toolChoice = converted.tools
    ? convertResponsesToolChoice(request.tool_choice, converted.names, warnings)
    : undefined;
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  if (request.parallel_tool_calls != null && converted.tools) body.parallel_tool_calls = request.parallel_tool_calls;
  const format = convertFormat(request.text?.format);
  if (format) body.response_format = format;
  if (request.text?.verbosity) body.verbosity = request.text.verbosity;
  if (request.temperature != null) body.temperature = request.temperature;
  if (request.top_p != null) body.top_p = request.top_p;
  if (request.max_output_tokens != null) body.max_completion_tokens = request.max_output_tokens;
  if (request.reasoning?.effort) body.reasoning_effort = request.reasoning.effort;
  for (const field of SAME_NAME_FIELDS) if (request[field] != null) body[field] = request[field];
  const dropped = (request.include ?? []).filter((value) => !HONOURED_INCLUDES.has(value));
  if (dropped.length > 0)
    warnings.push({
      code: 'unsupported_parameter',
      param: 'include',
      message: `include values not available when translating were ignored: ${dropped.join(' ')}`,
    });
  if (request.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

/** Chat parameter names -> the Responses names a client sent, for errors the gateway or an upstream raise. */
export const CHAT_TO_RESPONSES_PARAM: Record<string, string> = {
  'response_format.json_schema': 'text.format',
  response_format: 'text.format',
  max_completion_tokens: 'max_output_tokens',
  reasoning_effort: 'reasoning.effort',
  messages: 'input',
};
