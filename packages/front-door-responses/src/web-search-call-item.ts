import type { WebSearchCall } from '@switchyard/core';
import type { WebSearchCallItem } from './response-object.js';

/**
 * A canonical web search (`message.web_search_calls[i]` / `delta.web_search_calls[i]`: `{id, query}`) -> the Responses
 * `web_search_call` output item `{type:"web_search_call", id: "ws_<upstream id>", status:"completed", action:{type:
 * "search", query}}`. Pure; never throws.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses-object-output-web_search_call
 */
export function toWebSearchCallItem(call: WebSearchCall): WebSearchCallItem {
  return {
    type: 'web_search_call',
    id: `ws_${call.id}`,
    status: 'completed',
    action: { type: 'search', query: call.query },
  };
}
