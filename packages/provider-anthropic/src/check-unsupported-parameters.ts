import { type ChatCompletionRequest, type GatewayWarning, invalidRequestError } from '@switchyard/core';

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
]);

/** Why each answer-shaping parameter is rejected when its value is not neutral. */
const REJECTED: readonly [param: string, isSet: (value: unknown) => boolean, why: string][] = [
  ['temperature', (v) => typeof v === 'number' && v > 1, 'Anthropic accepts a temperature from 0 to 1.'],
  ['presence_penalty', (v) => typeof v === 'number' && v !== 0, 'Anthropic has no presence penalty.'],
  ['frequency_penalty', (v) => typeof v === 'number' && v !== 0, 'Anthropic has no frequency penalty.'],
  ['logit_bias', (v) => typeof v === 'object' && v !== null && Object.keys(v).length > 0, 'Anthropic has no logit bias.'],
  ['logprobs', (v) => v === true, 'Anthropic returns no log probabilities.'],
  ['top_logprobs', (v) => typeof v === 'number' && v > 0, 'Anthropic returns no log probabilities.'],
  ['modalities', (v) => Array.isArray(v) && v.some((m) => m !== 'text'), 'Anthropic answers with text only.'],
  ['audio', (v) => v != null, 'Anthropic answers with text only.'],
  ['functions', (v) => v != null, "legacy function calling is not translated; use 'tools'."],
  ['function_call', (v) => v != null, "legacy function calling is not translated; use 'tool_choice'."],
  ['web_search_options', (v) => v != null, 'web search is not translated for Anthropic models.'],
];

/**
 * The one rule for OpenAI parameters Anthropic cannot honour, applied before anything is sent upstream:
 * - a parameter the client relies on for what the answer contains is rejected with 400 `unsupported_parameter`
 *   naming it: `temperature` above 1 (Anthropic's range is 0..1), non-zero `presence_penalty` / `frequency_penalty`,
 *   a non-empty `logit_bias`, `logprobs: true`, `top_logprobs` > 0, audio output (`modalities` other than text,
 *   `audio`), legacy `functions` / `function_call`, `web_search_options`. A neutral value (penalty 0, `{}`,
 *   `logprobs: false`, `modalities: ["text"]`) is accepted and not sent;
 * - every other field the adapter does not read is only a hint or concerns OpenAI's platform (`seed`, `service_tier`,
 *   `store`, `metadata`, `prediction`, `reasoning_effort`, unknown fields...): it is dropped, and returned as an
 *   `unsupported_parameter` warning naming it (the gateway sends warnings in the `x-switchyard-warning` header).
 * Also rejects values Anthropic would refuse: a stop sequence without a non-whitespace character (`stop`), a `top_k`
 * that is not a positive integer. Returns the warnings; throws the 400 GatewayError.
 * @see https://docs.anthropic.com/en/api/openai-sdk#simple-fields
 * @see https://docs.anthropic.com/en/api/messages
 */
export function checkUnsupportedParameters(request: ChatCompletionRequest): GatewayWarning[] {
  const fields = request as Record<string, unknown>;
  for (const [param, isSet, why] of REJECTED) {
    if (isSet(fields[param])) throw invalidRequestError(`'${param}' is not supported by Anthropic models: ${why}`, param, 'unsupported_parameter');
  }
  const stop = typeof request.stop === 'string' ? [request.stop] : (request.stop ?? []);
  if (stop.some((s) => s.trim() === '')) {
    throw invalidRequestError("Invalid 'stop': Anthropic needs every stop sequence to contain a non-whitespace character.", 'stop', 'unsupported_parameter');
  }
  const topK = fields.top_k;
  if (topK != null && !(Number.isInteger(topK) && (topK as number) > 0)) {
    throw invalidRequestError("Invalid 'top_k': expected a positive integer.", 'top_k', 'invalid_value');
  }
  const warnings: GatewayWarning[] = [];
  for (const [param, value] of Object.entries(fields)) {
    if (READ_FIELDS.has(param) || value === undefined) continue;
    warnings.push({ code: 'unsupported_parameter', param, message: `'${param}' is not supported by Anthropic models and was ignored.` });
  }
  return warnings;
}
