import type {
  ChatCompletion,
  ChatCompletionMessageToolCall,
  FinishReason,
  ReasoningDetail,
  UrlCitationAnnotation,
  WebSearchCall,
} from '@switchyard/core';
import type { AnthropicMessagesResponse } from './anthropic-response-schemas.js';
import { JSON_RESPONSE_TOOL_NAME } from './json-response-tool.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicUsage } from './map-anthropic-usage.js';
import { thinkingDetail } from './thinking-detail.js';
import { webSearchCitations } from './web-search-citations.js';
import { webSearchCallOf } from './web-search-tool.js';

/** Options of {@link convertAnthropicResponse}. */
export interface AnthropicResponseOptions {
  /** The choice index of this answer (n > 1 runs one request per choice). Default 0. */
  index?: number;
  /** The request asked for JSON through the JSON response tool (see `convertToAnthropicTools`). Default false. */
  jsonMode?: boolean;
}

/**
 * Anthropic message -> OpenAI `chat.completion` with one choice:
 * - `text` blocks joined into `message.content` (null when there is none);
 * - `tool_use` blocks -> `message.tool_calls` (`{id, type:"function", function:{name, arguments}}`, `arguments` the
 *   JSON string of `input`);
 * - in JSON mode, the call of the JSON response tool becomes `message.content` (its input as JSON text), other text is
 *   left out (when the model answered without calling it, which it may when thinking made the tool optional, its text
 *   is the content), and a `tool_use` stop with no other tool call finishes with `stop`;
 * - `stop_reason` -> `finish_reason` ({@link mapAnthropicStopReason}); usage -> OpenAI usage ({@link mapAnthropicUsage});
 * - `thinking` blocks -> `message.reasoning_content` (their text, joined by a blank line) and, with `redacted_thinking`
 *   blocks, `message.reasoning_details` ({@link thinkingDetail}: the entries to send back on the next turn);
 * - `server_tool_use` blocks of the web search tool -> `message.web_search_calls` (`[{id, query}]`, see
 *   {@link webSearchCallOf}); `web_search_result_location` citations of text blocks -> `message.annotations` of type
 *   `url_citation`, each spanning its block's text in `content` ({@link webSearchCitations}); other block types (search
 *   results, other server tools) are left out.
 * `created` is now (unix seconds); `id` and `model` are Anthropic's. Pure; never throws.
 * @see https://docs.anthropic.com/en/api/messages#response
 */
export function convertAnthropicResponse(
  response: AnthropicMessagesResponse,
  options: AnthropicResponseOptions = {},
): ChatCompletion {
  const text: string[] = [];
  let json: string | undefined;
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  const reasoning: string[] = [];
  const details: ReasoningDetail[] = [];
  const searches: WebSearchCall[] = [];
  const annotations: UrlCitationAnnotation[] = [];
  let textLength = 0;
  for (const block of response.content) {
    const detail = thinkingDetail(block, details.length);
    const search = webSearchCallOf(block);
    if (search) searches.push(search);
    else if (detail) {
      details.push(detail);
      if (detail.text) reasoning.push(detail.text);
    } else if (block.type === 'text') {
      const blockText = block.text ?? '';
      annotations.push(...webSearchCitations(block.citations, textLength, blockText));
      text.push(blockText);
      textLength += blockText.length;
    } else if (block.type === 'tool_use') {
      const args = JSON.stringify(block.input ?? {});
      if (options.jsonMode && block.name === JSON_RESPONSE_TOOL_NAME) json ??= args;
      else toolCalls.push({ id: block.id!, type: 'function', function: { name: block.name!, arguments: args } });
    }
  }
  let finishReason: FinishReason = mapAnthropicStopReason(response.stop_reason);
  if (finishReason === 'tool_calls' && toolCalls.length === 0) finishReason = 'stop';
  const content = json ?? (text.length > 0 ? text.join('') : null);
  return {
    id: response.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: response.model,
    choices: [
      {
        index: options.index ?? 0,
        message: {
          role: 'assistant',
          content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...(reasoning.length > 0 ? { reasoning_content: reasoning.join('\n\n') } : {}),
          ...(details.length > 0 ? { reasoning_details: details } : {}),
          ...(searches.length > 0 ? { web_search_calls: searches } : {}),
          ...(annotations.length > 0 && !json ? { annotations } : {}),
        },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    usage: mapAnthropicUsage(response.usage),
  };
}
