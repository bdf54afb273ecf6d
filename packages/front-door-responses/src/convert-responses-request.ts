import { type ChatCompletionMessage, invalidRequestError } from '@switchyard/core';
import { responsesFunctionToolSchema, type ResponsesRequest } from './responses-request-schema.js';

function convertTools(tools: ResponsesRequest['tools']): Record<string, unknown>[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool, index) => {
    if (tool.type !== 'function') {
      throw invalidRequestError(
        `Tools of type '${tool.type}' are not supported by this gateway: only 'function' tools can be served by every provider.`,
        `tools[${index}].type`,
        'unsupported_value',
      );
    }
    const parsed = responsesFunctionToolSchema.safeParse(tool);
    if (!parsed.success) throw invalidRequestError(`Invalid function tool: ${parsed.error.issues[0]?.message ?? 'malformed'}.`, `tools[${index}]`);
    const { name, description, parameters, strict } = parsed.data;
    return {
      type: 'function',
      function: { name, ...(description ? { description } : {}), ...(parameters ? { parameters } : {}), ...(strict != null ? { strict } : {}) },
    };
  });
}

function convertToolChoice(choice: ResponsesRequest['tool_choice']): unknown {
  if (choice == null || typeof choice === 'string') return choice ?? undefined;
  if (choice.type === 'function' && choice.name) return { type: 'function', function: { name: choice.name } };
  throw invalidRequestError(`tool_choice of type '${choice.type}' is not supported by this gateway.`, 'tool_choice', 'unsupported_value');
}

function convertFormat(format: NonNullable<ResponsesRequest['text']>['format']): unknown {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, schema, strict, description } = format as { name: string; schema: Record<string, unknown>; strict?: boolean | null; description?: string | null };
  return { type: 'json_schema', json_schema: { name, schema, ...(strict != null ? { strict } : {}), ...(description ? { description } : {}) } };
}

const UNSUPPORTED_FIELDS = ['background', 'conversation', 'prompt'] as const;

/**
 * A Responses request plus the conversation so far -> the canonical chat completion request body: `instructions`
 * becomes a leading system message, `history` (earlier turns, already chat messages) comes next, then `input`;
 * `max_output_tokens` -> `max_completion_tokens`, `text.format` -> `response_format`, `reasoning.effort` ->
 * `reasoning_effort`, function tools -> chat tools. `metadata` and `store` stay at the gateway.
 * Throws 400 naming the field for built-in tools, other tool choices, and `background`/`conversation`/`prompt`.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function convertResponsesRequest(request: ResponsesRequest, history: readonly ChatCompletionMessage[], input: readonly ChatCompletionMessage[]): Record<string, unknown> {
  for (const field of UNSUPPORTED_FIELDS) {
    const value = (request as Record<string, unknown>)[field];
    if (value != null && value !== false) throw invalidRequestError(`'${field}' is not supported by this gateway.`, field, 'unsupported_parameter');
  }
  const messages: ChatCompletionMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  messages.push(...history, ...input);
  const body: Record<string, unknown> = { model: request.model, messages };
  const tools = convertTools(request.tools);
  if (tools) body.tools = tools;
  const toolChoice = convertToolChoice(request.tool_choice);
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  if (request.parallel_tool_calls != null && tools) body.parallel_tool_calls = request.parallel_tool_calls;
  const format = convertFormat(request.text?.format);
  if (format) body.response_format = format;
  if (request.temperature != null) body.temperature = request.temperature;
  if (request.top_p != null) body.top_p = request.top_p;
  if (request.max_output_tokens != null) body.max_completion_tokens = request.max_output_tokens;
  if (request.reasoning?.effort) body.reasoning_effort = request.reasoning.effort;
  if (request.user) body.user = request.user;
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
