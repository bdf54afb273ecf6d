import type { ChatCompletion } from '@switchyard/core';
import type { CohereChatResponse } from './cohere-api.js';
import { mapCohereFinishReason } from './map-cohere-finish-reason.js';
import { mapCohereUsage } from './map-cohere-usage.js';

/**
 * Cohere v2 chat answer -> OpenAI `chat.completion`: the text parts joined as the assistant's content, the finish
 * reason and usage mapped. `created` is the time of translation (unix seconds); Cohere gives none.
 * @see https://docs.cohere.com/reference/chat#response
 */
export function convertCohereResponse(response: CohereChatResponse, model: string): ChatCompletion {
  const text = (response.message.content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
  const usage = mapCohereUsage(response.usage);
  return {
    id: `chatcmpl-${response.id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null },
        finish_reason: mapCohereFinishReason(response.finish_reason),
        logprobs: null,
      },
    ],
    ...(usage ? { usage } : {}),
  };
}
