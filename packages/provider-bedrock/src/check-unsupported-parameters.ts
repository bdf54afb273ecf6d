import { type ChatCompletionRequest, type GatewayWarning, invalidRequestError } from '@switchyard/core';

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
  'parallel_tool_calls',
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

const REJECTED: readonly [param: string, isSet: (value: unknown) => boolean, why: string][] = [
  ['n', (v) => typeof v === 'number' && v > 1, 'Converse returns one choice per request.'],
  ['presence_penalty', (v) => typeof v === 'number' && v !== 0, 'Converse has no presence penalty.'],
  ['frequency_penalty', (v) => typeof v === 'number' && v !== 0, 'Converse has no frequency penalty.'],
  ['logit_bias', (v) => typeof v === 'object' && v !== null && Object.keys(v).length > 0, 'Converse has no logit bias.'],
  ['logprobs', (v) => v === true, 'Converse returns no log probabilities.'],
  ['top_logprobs', (v) => typeof v === 'number' && v > 0, 'Converse returns no log probabilities.'],
  ['modalities', (v) => Array.isArray(v) && v.some((m) => m !== 'text'), 'Converse answers with text here.'],
  ['audio', (v) => v != null, 'Converse answers with text here.'],
  ['response_format', (v) => typeof v === 'object' && v !== null && (v as { type?: string }).type !== 'text', 'Converse has no JSON mode; describe the JSON in a tool or the prompt.'],
  ['functions', (v) => v != null, "legacy function calling is not translated; use 'tools'."],
  ['function_call', (v) => v != null, "legacy function calling is not translated; use 'tool_choice'."],
];

/**
 * The rule for OpenAI parameters Bedrock's Converse API cannot honour, applied before anything is sent: a parameter
 * that shapes the answer is rejected with 400 `unsupported_parameter` naming it (`n` > 1, non-zero penalties,
 * `logit_bias`, `logprobs`, non-text `modalities`/`audio`, JSON `response_format`, legacy functions); a neutral value
 * is accepted. Every other unread field (`seed`, `user`, `service_tier`, `store`, `metadata`, unknown ones) is dropped
 * and returned as an `unsupported_parameter` warning (sent in `x-switchyard-warning`).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_RequestSyntax
 */
export function checkUnsupportedParameters(request: ChatCompletionRequest): GatewayWarning[] {
  const fields = request as Record<string, unknown>;
  for (const [param, isSet, why] of REJECTED) {
    if (isSet(fields[param])) throw invalidRequestError(`'${param}' is not supported by Bedrock models: ${why}`, param, 'unsupported_parameter');
  }
  const warnings: GatewayWarning[] = [];
  for (const [param, value] of Object.entries(fields)) {
    if (READ_FIELDS.has(param) || value === undefined || value === null) continue;
    warnings.push({ code: 'unsupported_parameter', param, message: `'${param}' is not supported by Bedrock models and was ignored.` });
  }
  return warnings;
}
