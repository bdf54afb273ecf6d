import type { ChatCompletionRequest } from '@switchyard/core';

/**
 * The canonical chat request of the conformance suite: a system and a user message, `temperature: 0.5`,
 * `top_p: 0.9`, `max_tokens: 64`, `stop: ["END"]`, `user: "conformance-user"`. Adapters check its translation in
 * `assertRequest`.
 */
export function conformanceChatRequest(
  model: string,
  extra: Partial<ChatCompletionRequest> = {},
): ChatCompletionRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Say hello.' },
    ],
    temperature: 0.5,
    top_p: 0.9,
    max_tokens: 64,
    stop: ['END'],
    user: 'conformance-user',
    ...extra,
  };
}
