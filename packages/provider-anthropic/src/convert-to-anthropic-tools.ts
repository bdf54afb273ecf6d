import { type ChatCompletionRequest, invalidRequestError } from '@switchyard/core';
import type { AnthropicCacheControl, AnthropicTool, AnthropicToolChoice } from './anthropic-types.js';
import { JSON_RESPONSE_TOOL_NAME, jsonResponseTool } from './json-response-tool.js';

/** What {@link convertToAnthropicTools} gives: the `tools` and `tool_choice` fields, and whether JSON output is asked. */
export interface AnthropicToolsPlan {
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  /** True when the answer comes through the JSON response tool (`response_format` json_object / json_schema). */
  jsonMode: boolean;
}

function convertTool(tool: NonNullable<ChatCompletionRequest['tools']>[number], index: number): AnthropicTool {
  const parameters = tool.function.parameters as Record<string, unknown> | undefined;
  if (parameters?.type !== undefined && parameters.type !== 'object') {
    const param = `tools[${index}].function.parameters`;
    throw invalidRequestError(
      `Invalid '${param}': Anthropic models need a parameters schema whose root is an object.`,
      param,
      'unsupported_parameter',
    );
  }
  const cacheControl =
    (tool as { cache_control?: AnthropicCacheControl }).cache_control ??
    (tool.function as { cache_control?: AnthropicCacheControl }).cache_control;
  return {
    name: tool.function.name,
    ...(tool.function.description ? { description: tool.function.description } : {}),
    input_schema: { type: 'object', ...(parameters ?? { properties: {} }) },
    ...(cacheControl ? { cache_control: cacheControl } : {}),
  };
}

/**
 * OpenAI `tools` / `tool_choice` / `parallel_tool_calls` / `response_format` -> Anthropic `tools` and `tool_choice`:
 * - each function tool -> `{name, description, input_schema: parameters}` (no parameters: an empty object schema), its
 *   `cache_control` (on the tool or its `function`) kept;
 * - `tool_choice` `auto` -> `{type:"auto"}`, `required` -> `{type:"any"}`, `none` -> `{type:"none"}`, a named function
 *   -> `{type:"tool", name}`; `parallel_tool_calls: false` adds `disable_parallel_tool_use: true` (and alone gives
 *   `{type:"auto", disable_parallel_tool_use: true}`); without tools no `tool_choice` is sent;
 * - `response_format` json_object / json_schema adds the JSON response tool ({@link jsonResponseTool}) and makes the
 *   model answer through it: forced (`{type:"tool", name:"json"}`) when there are no other tools or `tool_choice` is
 *   `none`, else `{type:"any"}` so that it either calls one of the client's tools or answers in JSON. With a named
 *   `tool_choice` or `required` the answer is a tool call anyway, and no JSON tool is added.
 * Throws 400 naming the field: an unknown `tool_choice`, a named tool that is not in `tools`, a parameters schema
 * whose root is not an object, or a client tool named `json` while JSON output is asked.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 */
export function convertToAnthropicTools(request: ChatCompletionRequest): AnthropicToolsPlan {
  const userTools = (request.tools ?? []).map(convertTool);
  const choice = request.tool_choice as string | { type?: string; function?: { name?: string } } | undefined;
  const disable = request.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  let named: string | undefined;
  if (typeof choice === 'object') {
    if (choice.type !== 'function' || typeof choice.function?.name !== 'string') {
      throw invalidRequestError(
        `Invalid 'tool_choice': '${String(choice.type)}' is not supported by Anthropic models; use auto, none, required or a function.`,
        'tool_choice',
        'unsupported_parameter',
      );
    }
    named = choice.function.name;
    if (!userTools.some((t) => t.name === named)) {
      throw invalidRequestError(
        `Invalid 'tool_choice': no tool named '${named}' is in 'tools'.`,
        'tool_choice.function.name',
        'invalid_value',
      );
    }
  }

  let jsonTool = jsonResponseTool(request);
  if (jsonTool && (named !== undefined || (choice === 'required' && userTools.length > 0))) jsonTool = undefined;
  if (jsonTool) {
    const clash = userTools.findIndex((t) => t.name === JSON_RESPONSE_TOOL_NAME);
    if (clash >= 0) {
      throw invalidRequestError(
        `Invalid 'tools[${clash}].function.name': '${JSON_RESPONSE_TOOL_NAME}' is reserved for JSON answers on Anthropic models.`,
        `tools[${clash}].function.name`,
        'invalid_value',
      );
    }
    const forced = userTools.length === 0 || choice === 'none';
    return {
      tools: [...userTools, jsonTool],
      tool_choice: forced
        ? { type: 'tool', name: JSON_RESPONSE_TOOL_NAME, disable_parallel_tool_use: true }
        : { type: 'any', ...disable },
      jsonMode: true,
    };
  }

  if (userTools.length === 0) return { jsonMode: false };
  let toolChoice: AnthropicToolChoice | undefined;
  if (named !== undefined) toolChoice = { type: 'tool', name: named, ...disable };
  else if (choice === 'none') toolChoice = { type: 'none' };
  else if (choice === 'required') toolChoice = { type: 'any', ...disable };
  else if (choice === 'auto' || request.parallel_tool_calls === false) toolChoice = { type: 'auto', ...disable };
  return { tools: userTools, ...(toolChoice ? { tool_choice: toolChoice } : {}), jsonMode: false };
}
