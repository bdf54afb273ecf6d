import type { GatewayWarning } from '@switchyard/core';

/**
 * True for Anthropic's web search server tool, whatever its version (`web_search_20250305`, later `web_search_*`).
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
export function isWebSearchTool(tool: { type?: string }): boolean {
  return typeof tool.type === 'string' && tool.type.startsWith('web_search_');
}

const LOCATION_FIELDS = ['city', 'region', 'country', 'timezone'] as const;

/**
 * Anthropic's web search server tool -> chat's `web_search_options`, for a model whose adapter runs its own search
 * (Gemini's Google Search grounding, Anthropic's tool through translation): `user_location` (`{type:"approximate",
 * city?, region?, country?, timezone?}`) -> `user_location: {type:"approximate", approximate:{...}}`; `max_uses`,
 * `allowed_domains` and `blocked_domains` have no chat field and are dropped, each with a `dropped_parameter` warning
 * naming `tools.<i>.<field>`. Pure.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-web_search_options
 */
export function toWebSearchOptions(
  tool: Record<string, unknown>,
  i: number,
  warn: (warning: GatewayWarning) => void,
): Record<string, unknown> {
  for (const field of ['max_uses', 'allowed_domains', 'blocked_domains']) {
    if (tool[field] !== undefined && tool[field] !== null)
      warn({
        code: 'dropped_parameter',
        param: `tools.${i}.${field}`,
        message: `Web search field '${field}' has no equivalent on this model and was not sent`,
      });
  }
  const location = tool.user_location;
  if (!location || typeof location !== 'object') return {};
  const approximate: Record<string, string> = {};
  for (const field of LOCATION_FIELDS) {
    const value = (location as Record<string, unknown>)[field];
    if (typeof value === 'string') approximate[field] = value;
  }
  return { user_location: { type: 'approximate', approximate } };
}
