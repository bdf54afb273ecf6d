import type { ChatCompletion } from '@switchyard/core';
import { checkPromptFeedback } from './check-prompt-feedback.js';
import { convertCandidateParts } from './convert-gemini-candidate-parts.js';
import { answerTextParts, geminiUrlCitations, geminiWebSearchCalls } from './convert-gemini-grounding.js';
import { convertGeminiLogprobs } from './convert-gemini-logprobs.js';
import type { GeminiGenerateContentResponse } from './gemini-types.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { mapGeminiUsage } from './map-gemini-usage.js';

/**
 * Gemini `generateContent` answer -> OpenAI `chat.completion`: one choice per candidate (by `index`), text joined,
 * thought summaries -> `reasoning_content`, thought signatures -> `reasoning_details`, function calls -> `tool_calls`,
 * `logprobsResult` -> `logprobs`, finish reasons and usage mapped; Google Search grounding: `webSearchQueries` ->
 * `message.web_search_calls` ({@link geminiWebSearchCalls}), `groundingSupports` -> `message.annotations` of type
 * `url_citation` ({@link geminiUrlCitations}). Throws 400 when the prompt was blocked.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
export function convertGeminiResponse(response: GeminiGenerateContentResponse, model: string): ChatCompletion {
  checkPromptFeedback(response);
  const choices = (response.candidates ?? []).map((candidate, i) => {
    const { text, reasoning, toolCalls, details } = convertCandidateParts(candidate.content?.parts);
    const index = candidate.index ?? i;
    const searches = geminiWebSearchCalls(candidate.groundingMetadata, response.responseId ?? 'gemini', index);
    const annotations = geminiUrlCitations(candidate.groundingMetadata, answerTextParts(candidate.content?.parts));
    return {
      index,
      message: {
        role: 'assistant' as const,
        content: text || (toolCalls.length > 0 ? null : ''),
        refusal: null,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        ...(reasoning ? { reasoning_content: reasoning } : {}),
        ...(details.length > 0 ? { reasoning_details: details } : {}),
        ...(searches.length > 0 ? { web_search_calls: searches } : {}),
        ...(annotations.length > 0 ? { annotations } : {}),
      },
      finish_reason: mapGeminiFinishReason(candidate.finishReason, toolCalls.length > 0),
      logprobs: convertGeminiLogprobs(candidate.logprobsResult),
    };
  });
  return {
    id: `chatcmpl-${response.responseId ?? 'gemini'}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: response.modelVersion ?? model,
    choices,
    ...(response.usageMetadata ? { usage: mapGeminiUsage(response.usageMetadata) } : {}),
  };
}
