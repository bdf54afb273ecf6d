import type { ChatCompletion, ChatCompletionMessageToolCall, ReasoningDetail } from '@switchyard/core';
import { bedrockReasoningDetail } from './bedrock-reasoning.js';
import type { ConverseResponse } from './bedrock-api.js';
import { mapConverseStopReason } from './map-converse-stop-reason.js';
import { mapConverseUsage } from './map-converse-usage.js';

/**
 * Converse answer -> OpenAI `chat.completion` with one choice: `{text}` blocks joined as `content`, `{toolUse}` blocks
 * as `tool_calls` (input stringified as `arguments`), `{reasoningContent}` blocks as `reasoning_content` (their text)
 * and `reasoning_details` (text with signature, or redacted content, to send back on the next turn), `stopReason` and `usage` mapped.
 * `id` is `chatcmpl-<requestId>` (Bedrock's `x-amzn-requestid`, else the gateway's request id).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
 */
export function convertConverseResponse(response: ConverseResponse, model: string, requestId: string): ChatCompletion {
  let text = '';
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  for (const block of response.output?.message?.content ?? []) {
    const detail = bedrockReasoningDetail(block.reasoningContent, details.length);
    if (detail) {
      details.push(detail);
      reasoning += detail.text ?? '';
    }
    if (typeof block.text === 'string') text += block.text;
    const toolUse = block.toolUse;
    if (toolUse)
      toolCalls.push({
        id: toolUse.toolUseId,
        type: 'function',
        function: { name: toolUse.name, arguments: JSON.stringify(toolUse.input ?? {}) },
      });
  }
  return {
    id: `chatcmpl-${requestId}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || (toolCalls.length > 0 ? null : ''),
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(details.length > 0 ? { reasoning_details: details } : {}),
        },
        finish_reason: mapConverseStopReason(response.stopReason),
        logprobs: null,
      },
    ],
    ...(response.usage ? { usage: mapConverseUsage(response.usage) } : {}),
  };
}
