import type { ChatCompletion } from '@switchyard/core';
import type { CohereChatResponse } from './cohere-api.js';
import { mapCohereFinishReason, mapCohereUsage } from './map-cohere-finish.js';

/**
 * Cohere v2 chat answer -> OpenAI `chat.completion`: the text parts joined as `content` (null when there are only
 * tool calls), `tool_calls` as they are, Cohere's `tool_plan` kept as a non-standard `tool_plan` field of the
 * message, `finish_reason` and usage mapped (see mapCohereFinishReason, mapCohereUsage).
 * @see https://docs.cohere.com/reference/chat#response
 */
export function convertCohereChat(provider: string, answer: CohereChatResponse, model: string): ChatCompletion {
  const content = (answer.message.content ?? [])
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('');
  const toolCalls = answer.message.tool_calls ?? [];
  const message: ChatCompletion['choices'][number]['message'] = {
    role: 'assistant',
    content: content || (toolCalls.length ? null : ''),
  };
  if (toolCalls.length)
    message.tool_calls = toolCalls.map((c) => ({
      id: c.id,
      type: 'function' as const,
      function: { name: c.function.name, arguments: c.function.arguments },
    }));
  if (answer.message.tool_plan) (message as Record<string, unknown>).tool_plan = answer.message.tool_plan;
  return {
    id: `chatcmpl-${answer.id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, message, finish_reason: mapCohereFinishReason(provider, answer.finish_reason), logprobs: null },
    ],
    usage: mapCohereUsage(answer.usage),
  };
}
