import type { ChatCompletion } from '@switchyard/core';
import type { AnthropicMessagesResponse } from './anthropic-types.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicUsage } from './map-anthropic-usage.js';

/**
 * Anthropic message -> OpenAI `chat.completion` with one choice at `index`: text blocks joined into `content` (null
 * when there is none), `tool_use` blocks -> `tool_calls` (`arguments` as a JSON string), `stop_reason` ->
 * `finish_reason`, usage mapped. Other block types (thinking, server tools) are left out.
 * @see https://docs.anthropic.com/en/api/messages#response
 */
export function convertAnthropicResponse(response: AnthropicMessagesResponse, index = 0): ChatCompletion {
  const text: string[] = [];
  const toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  for (const block of response.content) {
    if (block.type === 'text') text.push((block as { text: string }).text);
    else if (block.type === 'tool_use') {
      const use = block as { id: string; name: string; input: unknown };
      toolCalls.push({ id: use.id, type: 'function', function: { name: use.name, arguments: JSON.stringify(use.input ?? {}) } });
    }
  }
  return {
    id: response.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: response.model,
    choices: [
      {
        index,
        message: { role: 'assistant', content: text.length > 0 ? text.join('') : null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        finish_reason: mapAnthropicStopReason(response.stop_reason),
        logprobs: null,
      },
    ],
    usage: mapAnthropicUsage(response.usage),
  };
}
