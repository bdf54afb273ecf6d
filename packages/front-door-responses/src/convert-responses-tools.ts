import { type GatewayWarning, invalidRequestError } from '@switchyard/core';
import { z } from 'zod';
import { ToolNameMap } from './responses-tool-names.js';
import { type ResponsesRequest, responsesFunctionToolSchema } from './responses-request-schema.js';

/** A freeform tool (CustomToolParam): `{type:"custom", name, description?, format?: {type:"text"} | {type:"grammar", syntax, definition}}`. */
const customToolSchema = z.looseObject({
  type: z.literal('custom'),
  name: z.string().min(1),
  description: z.string().nullish(),
  format: z.looseObject({ type: z.string(), syntax: z.string().nullish(), definition: z.string().nullish() }).nullish(),
});

/** A namespace of tools (NamespaceToolParam): `{type:"namespace", name, description?, tools: (function | custom)[]}`. */
const namespaceToolSchema = z.looseObject({
  type: z.literal('namespace'),
  name: z.string().min(1),
  description: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })),
});

/** OpenAI's hosted web search tool (WebSearchTool / WebSearchPreviewTool), the fields chat's `web_search_options` has. */
const webSearchToolSchema = z.looseObject({
  type: z.string(),
  search_context_size: z.enum(['low', 'medium', 'high']).nullish(),
  user_location: z
    .looseObject({
      city: z.string().nullish(),
      country: z.string().nullish(),
      region: z.string().nullish(),
      timezone: z.string().nullish(),
    })
    .nullish(),
});

/** The hosted tool types that are web search (mapped where the provider has a search tool). */
const WEB_SEARCH_TYPES = new Set([
  'web_search',
  'web_search_preview',
  'web_search_2025_08_26',
  'web_search_preview_2025_03_11',
]);

/** Chat tools built from Responses tools, with the names to map calls back and what was dropped. */
export interface ConvertedTools {
  /** Chat function tools (`{type:"function", function:{name, description?, parameters?, strict?}}`), or none. */
  tools?: Record<string, unknown>[];
  /** The flattened names, to turn the model's calls back into the client's items. */
  names: ToolNameMap;
  /** Chat's `web_search_options` for a `web_search` tool, when the provider maps web search. */
  webSearchOptions?: Record<string, unknown>;
}

/** How {@link convertResponsesTools} treats hosted tools. */
export interface HostedToolSupport {
  /** The serving provider has a web search tool (Anthropic's server tool, Gemini's Google Search grounding). */
  webSearch?: boolean;
}

type ChatTool = { type: 'function'; function: Record<string, unknown> };

function functionTool(raw: unknown, param: string, names: ToolNameMap, namespace?: string): ChatTool {
  const parsed = responsesFunctionToolSchema.safeParse(raw);
  if (!parsed.success)
    throw invalidRequestError(`Invalid function tool: ${parsed.error.issues[0]?.message ?? 'malformed'}.`, param);
  const { name, description, parameters, strict } = parsed.data;
  const flat = names.add({ name, ...(namespace ? { namespace } : {}), kind: 'function' });
  return {
    type: 'function',
    function: {
      name: flat,
      ...(description ? { description } : {}),
      ...(parameters ? { parameters } : {}),
      ...(strict != null ? { strict } : {}),
    },
  };
}

/**
 * A freeform tool -> a function with one string argument, `input`, that carries the raw text; the tool's grammar (if
 * any) is put in the function's description so the model can follow it. Calls come back as `custom_tool_call`.
 */
function customTool(raw: unknown, param: string, names: ToolNameMap, namespace?: string): ChatTool {
  const parsed = customToolSchema.safeParse(raw);
  if (!parsed.success)
    throw invalidRequestError(`Invalid custom tool: ${parsed.error.issues[0]?.message ?? 'malformed'}.`, param);
  const { name, description, format } = parsed.data;
  const flat = names.add({ name, ...(namespace ? { namespace } : {}), kind: 'custom' });
  const grammar =
    format?.type === 'grammar' && format.definition
      ? `\n\nThe input must follow this ${format.syntax ?? ''} grammar:\n${format.definition}`
      : '';
  return {
    type: 'function',
    function: {
      name: flat,
      description: `${description ?? ''}${grammar}`.trim() || `The freeform tool '${name}'.`,
      parameters: {
        type: 'object',
        properties: { input: { type: 'string', description: `The raw input of '${name}' (freeform text, not JSON).` } },
        required: ['input'],
        additionalProperties: false,
      },
    },
  };
}

function webSearchOptions(raw: unknown): Record<string, unknown> {
  const parsed = webSearchToolSchema.safeParse(raw);
  if (!parsed.success) return {};
  const { search_context_size: size, user_location: location } = parsed.data;
  const approximate = location
    ? Object.fromEntries(Object.entries(location).filter(([key, value]) => key !== 'type' && value != null))
    : undefined;
  return {
    ...(size ? { search_context_size: size } : {}),
    ...(approximate && Object.keys(approximate).length > 0
      ? { user_location: { type: 'approximate', approximate } }
      : {}),
  };
}

/**
 * Responses `tools` -> chat tools every provider can serve:
 * - `function` tools as they are;
 * - `namespace` tools flattened: each function or custom tool inside becomes a function named `<namespace>__<name>`
 *   (see `flattenToolName`), its calls mapped back to `namespace` + `name`;
 * - `custom` (freeform) tools -> a function with one string argument `input` (the grammar in its description);
 * - `web_search` (and its preview types) -> chat's `web_search_options` when `hosted.webSearch` (the provider maps it
 *   to its own search tool), else dropped;
 * - every other hosted tool (`file_search`, `code_interpreter`, `image_generation`, `tool_search`, `computer_use`,
 *   `mcp`, ...) is dropped: no translated provider can run OpenAI's hosted tools.
 * `names` (a new map by default) is filled with the flattened names. Each drop is pushed to `warnings` (code `unsupported_tool`, the `x-switchyard-warning` header), never a 400.
 * Throws 400 naming `tools[i]` only for a malformed function, custom or namespace tool.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 */
export function convertResponsesTools(
  tools: ResponsesRequest['tools'],
  warnings: GatewayWarning[],
  hosted: HostedToolSupport = {},
  names = new ToolNameMap(),
): ConvertedTools {
  if (!tools || tools.length === 0) return { names };
  const chatTools: ChatTool[] = [];
  let webSearch: Record<string, unknown> | undefined;
  tools.forEach((tool, index) => {
    const param = `tools[${index}]`;
    if (tool.type === 'function') chatTools.push(functionTool(tool, param, names));
    else if (tool.type === 'custom') chatTools.push(customTool(tool, param, names));
    else if (tool.type === 'namespace') {
      const parsed = namespaceToolSchema.safeParse(tool);
      if (!parsed.success)
        throw invalidRequestError(`Invalid namespace tool: ${parsed.error.issues[0]?.message ?? 'malformed'}.`, param);
      parsed.data.tools.forEach((inner, i) => {
        const at = `${param}.tools[${i}]`;
        if (inner.type === 'function') chatTools.push(functionTool(inner, at, names, parsed.data.name));
        else if (inner.type === 'custom') chatTools.push(customTool(inner, at, names, parsed.data.name));
        else
          warnings.push({
            code: 'unsupported_tool',
            param: `${at}.type`,
            message: `tools of type '${inner.type}' inside a namespace were dropped`,
          });
      });
    } else if (WEB_SEARCH_TYPES.has(tool.type) && hosted.webSearch) {
      webSearch = webSearchOptions(tool);
    } else {
      warnings.push({
        code: 'unsupported_tool',
        param: `${param}.type`,
        message: `the hosted tool '${tool.type}' was dropped: this provider has no equivalent`,
      });
    }
  });
  return {
    ...(chatTools.length > 0 ? { tools: chatTools } : {}),
    names,
    ...(webSearch ? { webSearchOptions: webSearch } : {}),
  };
}

/**
 * Responses `tool_choice` -> chat's: `none`/`auto`/`required` as they are; `{type:"function"|"custom", name,
 * namespace?}` -> the named (flattened) function; a hosted tool choice (`{type:"web_search"}`, ...) or
 * `allowed_tools` -> `auto`, with a warning (`unsupported_tool_choice`).
 */
export function convertResponsesToolChoice(
  choice: ResponsesRequest['tool_choice'],
  names: ToolNameMap,
  warnings: GatewayWarning[],
): unknown {
  if (choice == null || typeof choice === 'string') return choice ?? undefined;
  if ((choice.type === 'function' || choice.type === 'custom') && choice.name) {
    const namespace = typeof choice.namespace === 'string' ? choice.namespace : undefined;
    const flat = names.add({
      name: choice.name,
      ...(namespace ? { namespace } : {}),
      kind: choice.type === 'custom' ? 'custom' : 'function',
    });
    return { type: 'function', function: { name: flat } };
  }
  warnings.push({
    code: 'unsupported_tool_choice',
    param: 'tool_choice',
    message: `tool_choice of type '${choice.type}' was replaced by 'auto'`,
  });
  return 'auto';
}
