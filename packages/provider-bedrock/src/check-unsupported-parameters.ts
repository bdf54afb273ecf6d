import {
  LEGACY_FUNCTION_CALLING_REFUSED,
  type ChatCompletionRequest,
  type GatewayWarning,
  type RefusedParameter,
  checkRequestParameters,
  nonNeutral,
} from '@switchyard/core';

/** Request fields this adapter translates (or accepts at a neutral value). */
const READ_FIELDS = new Set([
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'temperature',
  'top_p',
  'n',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'response_format',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'modalities',
  'reasoning_effort',
  'additionalModelRequestFields',
]);

/** Answer-shaping parameters Converse cannot honour, rejected when their value is not neutral. */
const REFUSED: readonly RefusedParameter[] = [
  { param: 'n', isSet: nonNeutral.aboveOne, why: 'Converse returns one choice per request.' },
  { param: 'presence_penalty', isSet: nonNeutral.nonZero, why: 'Converse has no presence penalty.' },
  { param: 'frequency_penalty', isSet: nonNeutral.nonZero, why: 'Converse has no frequency penalty.' },
  { param: 'logit_bias', isSet: nonNeutral.nonEmptyObject, why: 'Converse has no logit bias.' },
  { param: 'logprobs', isSet: nonNeutral.isTrue, why: 'Converse returns no log probabilities.' },
  { param: 'top_logprobs', isSet: nonNeutral.positive, why: 'Converse returns no log probabilities.' },
  { param: 'modalities', isSet: nonNeutral.nonTextModalities, why: 'Converse answers with text here.' },
  { param: 'audio', isSet: nonNeutral.present, why: 'Converse answers with text here.' },
  {
    param: 'response_format',
    isSet: (v) => typeof v === 'object' && v !== null && (v as { type?: string }).type !== 'text',
    why: 'Converse has no JSON mode; describe the JSON in a tool or the prompt.',
  },
  ...LEGACY_FUNCTION_CALLING_REFUSED,
];

/**
 * Core's rule for OpenAI parameters an upstream cannot honour (`checkRequestParameters`), with the table of Bedrock's
 * Converse API, applied before anything is sent: a parameter that shapes the answer is rejected with 400
 * `unsupported_parameter` naming it (`n` > 1, non-zero penalties, `logit_bias`, `logprobs`, non-text
 * `modalities`/`audio`, JSON `response_format`, legacy functions); a neutral value is accepted. Every other unread
 * field (`seed`, `user`, `service_tier`, `store`, `metadata`, unknown ones) is dropped and returned as an
 * `unsupported_parameter` warning (sent in `x-switchyard-warning`).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_RequestSyntax
 */
export function checkUnsupportedParameters(request: ChatCompletionRequest): GatewayWarning[] {
  return checkRequestParameters(request, { upstream: 'Bedrock models', handled: READ_FIELDS, refused: REFUSED });
}
