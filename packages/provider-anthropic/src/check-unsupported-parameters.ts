import {
  LEGACY_FUNCTION_CALLING_REFUSED,
  type ChatCompletionRequest,
  type GatewayWarning,
  type RefusedParameter,
  checkRequestParameters,
  invalidRequestError,
  nonNeutral,
} from '@switchyard/core';

/** Request fields this adapter translates (or, for a neutral value of a rejected one, accepts). */
const READ_FIELDS = new Set([
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'temperature',
  'top_p',
  'top_k',
  'n',
  'stream',
  'stream_options',
  'user',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'modalities',
  'reasoning_effort',
  'thinking',
  'output_config',
  'web_search_options',
]);

/** Answer-shaping parameters Anthropic cannot honour, rejected when their value is not neutral. */
const REFUSED: readonly RefusedParameter[] = [
  { param: 'temperature', isSet: nonNeutral.aboveOne, why: 'Anthropic accepts a temperature from 0 to 1.' },
  { param: 'presence_penalty', isSet: nonNeutral.nonZero, why: 'Anthropic has no presence penalty.' },
  { param: 'frequency_penalty', isSet: nonNeutral.nonZero, why: 'Anthropic has no frequency penalty.' },
  { param: 'logit_bias', isSet: nonNeutral.nonEmptyObject, why: 'Anthropic has no logit bias.' },
  { param: 'logprobs', isSet: nonNeutral.isTrue, why: 'Anthropic returns no log probabilities.' },
  { param: 'top_logprobs', isSet: nonNeutral.positive, why: 'Anthropic returns no log probabilities.' },
  { param: 'modalities', isSet: nonNeutral.nonTextModalities, why: 'Anthropic answers with text only.' },
  { param: 'audio', isSet: nonNeutral.present, why: 'Anthropic answers with text only.' },
  ...LEGACY_FUNCTION_CALLING_REFUSED,
];

/**
 * Core's rule for OpenAI parameters an upstream cannot honour (`checkRequestParameters`), with Anthropic's table,
 * applied before anything is sent upstream:
 * - rejected with 400 `unsupported_parameter` naming it: `temperature` above 1 (Anthropic's range is 0..1), non-zero
 *   `presence_penalty` / `frequency_penalty`, a non-empty `logit_bias`, `logprobs: true`, `top_logprobs` > 0, audio
 *   output (`modalities` other than text, `audio`), legacy `functions` / `function_call`. A
 *   neutral value (penalty 0, `{}`, `logprobs: false`, `modalities: ["text"]`) is accepted and not sent;
 * - every other field the adapter does not read (`seed`, `service_tier`, `store`, `metadata`, `prediction`, unknown
 *   fields...) is dropped and returned as an `unsupported_parameter` warning naming it (`x-switchyard-warning`).
 * Also rejects values Anthropic would refuse: a stop sequence without a non-whitespace character (`stop`), a `top_k`
 * that is not a positive integer. Returns the warnings; throws the 400 GatewayError.
 * @see https://docs.anthropic.com/en/api/openai-sdk#simple-fields
 * @see https://docs.anthropic.com/en/api/messages
 */
export function checkUnsupportedParameters(request: ChatCompletionRequest): GatewayWarning[] {
  const warnings = checkRequestParameters(request, {
    upstream: 'Anthropic models',
    handled: READ_FIELDS,
    refused: REFUSED,
  });
  const stop = typeof request.stop === 'string' ? [request.stop] : (request.stop ?? []);
  if (stop.some((s) => s.trim() === '')) {
    throw invalidRequestError(
      "Invalid 'stop': Anthropic needs every stop sequence to contain a non-whitespace character.",
      'stop',
      'unsupported_parameter',
    );
  }
  const topK = (request as Record<string, unknown>).top_k;
  if (topK != null && !(Number.isInteger(topK) && (topK as number) > 0)) {
    throw invalidRequestError("Invalid 'top_k': expected a positive integer.", 'top_k', 'invalid_value');
  }
  return warnings;
}
