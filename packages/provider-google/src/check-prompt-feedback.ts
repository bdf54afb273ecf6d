import { GatewayError } from '@switchyard/core';
import type { GeminiGenerateContentResponse } from './gemini-types.js';

/**
 * Throws 400 `content_filter` when Gemini blocked the prompt itself (`promptFeedback.blockReason`, or no candidates
 * with prompt feedback), naming the reason, so the client sees why nothing came back.
 * @see https://ai.google.dev/api/generate-content#PromptFeedback
 */
export function checkPromptFeedback(response: GeminiGenerateContentResponse): void {
  const feedback = response.promptFeedback;
  if (!feedback || (response.candidates?.length ?? 0) > 0) return;
  const reason = feedback.blockReason ?? 'OTHER';
  throw new GatewayError({
    status: 400,
    type: 'invalid_request_error',
    code: 'content_filter',
    param: 'messages',
    message: `Gemini blocked the prompt (${reason})${feedback.blockReasonMessage ? `: ${feedback.blockReasonMessage}` : '.'}`,
  });
}
