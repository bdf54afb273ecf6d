import type { GatewayWarning } from '@switchyard/core';
import type { MessagesRequest } from './messages-request-schema.js';
import { isWebSearchTool, toWebSearchOptions } from './web-search-tool.js';

type Warn = (warning: GatewayWarning) => void;

/** The fields of an Anthropic tool that a chat function tool carries (the rest is reported as dropped). */
const TOOL_FIELDS = new Set(['name', 'description', 'input_schema', 'type']);

/** Chat function tools, and the `web_search_options` a web search server tool became (see {@link convertMessagesTools}). */
export interface ConvertedMessagesTools {
  tools: Record<string, unknown>[];
  webSearchOptions?: Record<string, unknown>;
}

/**
 * Anthropic `tools` -> chat function tools (`input_schema` -> `parameters`). The web search server tool
 * (`web_search_*`) becomes chat's `web_search_options` when `webSearch` is true (the model's adapter runs its own
 * search, e.g. Gemini's Google Search grounding; see `toWebSearchOptions`). Other server tools (a `type` other than
 * `custom`), and web search when `webSearch` is false, have no equivalent off Anthropic: each is left out with a
 * `dropped_parameter` warning naming `tools.<i>`, so an agent carries on without it. Per-tool fields with no chat equivalent
 * (`defer_loading`, `cache_control`, `input_examples`, `strict`...) are dropped with one warning per field name.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview
 */
export function convertMessagesTools(
  tools: NonNullable<MessagesRequest['tools']>,
  warn: Warn,
  webSearch = false,
): ConvertedMessagesTools {
  const converted: Record<string, unknown>[] = [];
  let webSearchOptions: Record<string, unknown> | undefined;
  const droppedFields = new Set<string>();
  tools.forEach((tool, i) => {
    if (webSearch && isWebSearchTool(tool) && !webSearchOptions) {
      webSearchOptions = toWebSearchOptions(tool, i, warn);
      return;
    }
    if (tool.type && tool.type !== 'custom') {
      warn({
        code: 'dropped_parameter',
        param: `tools.${i}`,
        message: `Server tool '${tool.type}' ('${tool.name}') exists on Anthropic models only and was not sent`,
      });
      return;
    }
    for (const [field, value] of Object.entries(tool))
      if (!TOOL_FIELDS.has(field) && value !== undefined && value !== null) droppedFields.add(field);
    converted.push({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.input_schema ?? { type: 'object' },
      },
    });
  });
  for (const field of droppedFields)
    warn({
      code: 'dropped_parameter',
      param: `tools[].${field}`,
      message: `Tool field '${field}' applies to Anthropic models only and was not sent`,
    });
  return { tools: converted, ...(webSearchOptions && { webSearchOptions }) };
}
