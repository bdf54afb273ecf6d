import type { ChatCompletionRequest, GatewayWarning, WebSearchCall } from '@switchyard/core';
import { invalidRequestError } from '@switchyard/core';
import { z } from 'zod';

/** The name Anthropic's web search server tool is declared and called with. */
export const WEB_SEARCH_TOOL_NAME = 'web_search';

/**
 * Anthropic's web search server tool: `{type:"web_search_20250305", name:"web_search", user_location?: {type:
 * "approximate", city?, region?, country?, timezone?}}` (also `max_uses`, `allowed_domains`, `blocked_domains`, which
 * chat's `web_search_options` has no field for).
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
export interface AnthropicWebSearchTool {
  type: 'web_search_20250305';
  name: typeof WEB_SEARCH_TOOL_NAME;
  user_location?: { type: 'approximate'; city?: string; region?: string; country?: string; timezone?: string };
}

/** Chat's `web_search_options`: `{search_context_size?, user_location?: {type:"approximate", approximate:{...}}}`. */
const webSearchOptionsSchema = z.looseObject({
  search_context_size: z.enum(['low', 'medium', 'high']).nullish(),
  user_location: z
    .looseObject({
      type: z.string().nullish(),
      approximate: z
        .looseObject({
          city: z.string().nullish(),
          region: z.string().nullish(),
          country: z.string().nullish(),
          timezone: z.string().nullish(),
        })
        .nullish(),
    })
    .nullish(),
});

/**
 * Chat's `web_search_options` -> Anthropic's web search server tool ({@link AnthropicWebSearchTool}), or undefined
 * when the request has none. `user_location.approximate` becomes the tool's `user_location`; `search_context_size`
 * has no equivalent and is dropped with an `unsupported_parameter` warning pushed to `warnings`.
 * Throws 400 naming `web_search_options` when it is not an object of that shape.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-web_search_options
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
export function webSearchTool(
  request: ChatCompletionRequest,
  warnings: GatewayWarning[],
): AnthropicWebSearchTool | undefined {
  const raw = (request as { web_search_options?: unknown }).web_search_options;
  if (raw == null) return undefined;
  const parsed = webSearchOptionsSchema.safeParse(raw);
  if (!parsed.success)
    throw invalidRequestError(
      `Invalid 'web_search_options': ${parsed.error.issues[0]?.message ?? 'malformed'}.`,
      'web_search_options',
    );
  const { search_context_size: size, user_location: location } = parsed.data;
  if (size) {
    warnings.push({
      code: 'unsupported_parameter',
      param: 'web_search_options.search_context_size',
      message: 'Anthropic models have no search context size; it was ignored',
    });
  }
  const approximate = Object.fromEntries(
    Object.entries(location?.approximate ?? {}).filter(
      ([key, value]) => ['city', 'region', 'country', 'timezone'].includes(key) && typeof value === 'string',
    ),
  );
  return {
    type: 'web_search_20250305',
    name: WEB_SEARCH_TOOL_NAME,
    ...(Object.keys(approximate).length > 0 ? { user_location: { type: 'approximate' as const, ...approximate } } : {}),
  };
}

/** A `server_tool_use` block of the web search tool: `{type:"server_tool_use", id, name:"web_search", input:{query}}`. */
const webSearchUseSchema = z.looseObject({
  type: z.literal('server_tool_use'),
  id: z.string(),
  name: z.literal(WEB_SEARCH_TOOL_NAME),
  input: z.looseObject({ query: z.string() }),
});

/**
 * One content block -> the web search it records (`{id, query}`), or undefined when it is not a `server_tool_use`
 * block of the web search tool with a string `query`. Pure; never throws.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#response
 */
export function webSearchCallOf(block: unknown): WebSearchCall | undefined {
  const parsed = webSearchUseSchema.safeParse(block);
  return parsed.success ? { id: parsed.data.id, query: parsed.data.input.query } : undefined;
}
