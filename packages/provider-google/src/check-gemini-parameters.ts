import {
  type AdapterCallContext,
  type ChatCompletionRequest,
  invalidRequestError,
  reportDroppedParameters,
} from '@switchyard/core';

/** Request fields the Gemini adapter translates (see `convertToGeminiRequest`) or checks here. */
const HANDLED = new Set([
  'model',
  'messages',
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'n',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'response_format',
  'tools',
  'tool_choice',
  'web_search_options',
  'stream',
  'stream_options',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'reasoning_effort',
  // Gemini's own name, passed through (see geminiThinkingConfig).
  'thinkingConfig',
]);

/**
 * The Gemini adapter's rule for OpenAI parameters it cannot honour: a value that would change the answer is rejected
 * with 400 `unsupported_parameter` naming it (a non-empty `logit_bias`); a neutral value is accepted and not sent; every other field that is not translated (`user`, `parallel_tool_calls`,
 * `store`, unknown fields...) is dropped with a `dropped_parameter` warning (`x-switchyard-warning`).
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerationConfig
 */
export function checkGeminiParameters(
  request: ChatCompletionRequest,
  context: Pick<AdapterCallContext, 'warn' | 'provider'>,
): void {
  const reject = (param: string, why: string) => {
    throw invalidRequestError(
      `'${param}' is not supported by Gemini models through this gateway: ${why}`,
      param,
      'unsupported_parameter',
    );
  };
  if (request.logit_bias && Object.keys(request.logit_bias).length > 0)
    reject('logit_bias', 'Gemini has no logit bias.');
  reportDroppedParameters(request, HANDLED, context);
}
