/**
 * A non-streamed chat completion as OpenAI answers it (`POST /v1/chat/completions`), with one assistant message `ok`
 * and the given usage in tokens (`total_tokens` = `prompt_tokens` + `completion_tokens`), for mock upstreams.
 * Shape: https://platform.openai.com/docs/api-reference/chat/object
 */
export function chatCompletion(model: string, promptTokens: number, completionTokens: number) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_763_769_600,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop', logprobs: null }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}
