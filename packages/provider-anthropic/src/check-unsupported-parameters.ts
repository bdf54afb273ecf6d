import { type ChatCompletionRequest, invalidRequestError } from '@switchyard/core';

/**
 * The one rule for OpenAI parameters Anthropic cannot honour: a parameter whose value would change the answer is
 * rejected with 400 `unsupported_parameter` naming it, before anything is sent upstream; a neutral value (penalty 0,
 * empty `logit_bias`, `logprobs: false`, `response_format: text`) is accepted and simply not sent.
 * Rejected: `temperature` above 1 (Anthropic's range is 0..1), non-zero `presence_penalty` / `frequency_penalty`,
 * non-empty `logit_bias`, `logprobs: true`, `top_logprobs`, `seed`, `response_format` other than `text`, audio output.
 * @see https://docs.anthropic.com/en/api/openai-sdk#simple-fields
 */
export function checkUnsupportedParameters(request: ChatCompletionRequest): void {
  const reject = (param: string, why: string) => {
    throw invalidRequestError(`'${param}' is not supported by Anthropic models: ${why}`, param, 'unsupported_parameter');
  };
  if (request.temperature != null && request.temperature > 1) reject('temperature', 'Anthropic accepts 0 to 1.');
  if (request.presence_penalty) reject('presence_penalty', 'Anthropic has no penalties.');
  if (request.frequency_penalty) reject('frequency_penalty', 'Anthropic has no penalties.');
  if (request.logit_bias && Object.keys(request.logit_bias).length > 0) reject('logit_bias', 'Anthropic has no logit bias.');
  if (request.logprobs) reject('logprobs', 'Anthropic returns no log probabilities.');
  if (request.top_logprobs) reject('top_logprobs', 'Anthropic returns no log probabilities.');
  if (request.seed != null) reject('seed', 'Anthropic has no seeded sampling.');
  const format = (request.response_format as { type?: string } | null | undefined)?.type;
  if (format && format !== 'text') reject('response_format', 'structured output is not translated for Anthropic; use tools.');
  if ((request as { modalities?: string[] }).modalities?.includes('audio')) reject('modalities', 'Anthropic produces text only.');
}
