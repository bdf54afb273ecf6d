import { type ChatCompletionRequest, invalidRequestError } from '@switchyard/core';
import type { AnthropicTool } from './anthropic-types.js';

/**
 * The name of the tool through which JSON answers are asked for. The model "calls" it with the answer as its input;
 * the adapter turns that call back into `message.content` (finish reason `stop`).
 */
export const JSON_RESPONSE_TOOL_NAME = 'json';

/**
 * OpenAI `response_format` -> the tool that carries a JSON answer, or undefined for `text` / no format:
 * - `json_schema` -> `{name:"json", description, input_schema: json_schema.schema}` (the schema's root must be an
 *   object, as for OpenAI's structured outputs);
 * - `json_object` -> the same tool with `input_schema: {type:"object"}` (any JSON object).
 * Anthropic's Messages API has no JSON mode that every model accepts; a tool the model is made to call works on all of
 * them (the "JSON mode" of Anthropic's tool use guide; also what the recorded `anthropic-json-tool` exchanges show). Throws 400 naming `response_format...` for a
 * schema whose root is not an object.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#json-mode
 */
export function jsonResponseTool(request: ChatCompletionRequest): AnthropicTool | undefined {
  const format = request.response_format as
    | { type: string; json_schema?: { name?: string; description?: string; schema?: Record<string, unknown> } }
    | undefined;
  if (format?.type === 'json_object')
    return {
      name: JSON_RESPONSE_TOOL_NAME,
      description: 'Answer with a JSON object.',
      input_schema: { type: 'object' },
    };
  if (format?.type !== 'json_schema') return undefined;
  const schema = format.json_schema?.schema ?? { type: 'object' };
  if (schema.type !== 'object') {
    throw invalidRequestError(
      "Invalid 'response_format.json_schema.schema': Anthropic models need a schema whose root is an object.",
      'response_format.json_schema.schema',
      'unsupported_parameter',
    );
  }
  const description =
    format.json_schema?.description ??
    `Answer with JSON matching the '${format.json_schema?.name ?? 'response'}' schema.`;
  return { name: JSON_RESPONSE_TOOL_NAME, description, input_schema: schema };
}
