import type { ChatCompletion, ChatCompletionMessageToolCall } from '@switchyard/core';
import type { ConverseResponse } from './bedrock-types.js';
import { mapConverseStopReason } from './map-converse-stop-reason.js';
import { mapConverseUsage } from './map-converse-usage.js';

/**
 * Converse answer -> OpenAI `chat.completion` with one choice: `{text}` blocks joined as `content`, `{toolUse}` blocks
 * as `tool_calls` (input stringified as `arguments`), reasoning blocks left out, `stopReason` and `usage` mapped.
 * `id` is `chatcmpl-<requestId>` (Bedrock's `x-amzn-requestid`, else the gateway's request id).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
 */
export function convertConverseResponse(response: ConverseResponse, model: string, requestId: string): ChatCompletion {
  let text = '';
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const block of response.output?.message?.content ?? []) {
    if (typeof block.text === 'string') text += block.text;
    const toolUse = block.toolUse as { toolUseId: string; name: string; input?: unknown } | undefined;
    if (toolUse) toolCalls.push({ id: toolUse.toolUseId, type: 'function', function: { name: toolUse.name, arguments: JSON.stringify(toolUse.input ?? {}) } });
  }
  return {
    id: `chatcmpl-${requestId}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text || (toolCalls.length > 0 ? null : ''), refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        finish_reason: mapConverseStopReason(response.stopReason),
        logprobs: null,
      },
    ],
    ...(response.usage ? { usage: mapConverseUsage(response.usage) } : {}),
  };
}
