import {
  LEGACY_FUNCTION_CALLING_REFUSED,
  type ChatCompletionRequest,
  type GatewayWarning,
  type RefusedParameter,
  checkRequestParameters,
  invalidRequestError,
  nonNeutral,
} from '@switchyard/core';

/** Request fields this conversion translates; every other one is dropped with a warning (see {@link convertToCohereChat}). */
const HANDLED = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'response_format',
  'n',
]);
/** Answer-shaping parameters Cohere cannot honour, rejected when their value is not neutral. */
const REFUSED: readonly RefusedParameter[] = [
  { param: 'modalities', isSet: nonNeutral.nonTextModalities, why: 'Cohere answers with text only.' },
  { param: 'audio', isSet: nonNeutral.present, why: 'Cohere answers with text only.' },
  ...LEGACY_FUNCTION_CALLING_REFUSED,
];
import type { CohereMessage } from './cohere-types.js';

function text(content: unknown, param: string): string {
  if (typeof content === 'string') return content;
  if (content == null) return '';
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: string; text?: string }, i) => {
        if (part.type === 'text') return part.text ?? '';
        throw invalidRequestError(
          `Cohere accepts text only in this message; '${part.type}' is not supported here.`,
          `${param}[${i}]`,
        );
      })
      .join('');
  }
  throw invalidRequestError('Unsupported message content.', param);
}

function userContent(content: unknown, param: string): string | unknown[] {
  if (!Array.isArray(content)) return text(content, param);
  return content.map((part: { type?: string }, i) => {
    if (part.type === 'text' || part.type === 'image_url') return part; // Cohere v2 takes OpenAI's text and image_url parts.
    throw invalidRequestError(`Cohere does not accept '${part.type}' content.`, `${param}[${i}]`);
  });
}

function toolChoice(choice: ChatCompletionRequest['tool_choice']): 'REQUIRED' | 'NONE' | undefined {
  if (choice === undefined || choice === 'auto') return undefined;
  if (choice === 'required') return 'REQUIRED';
  if (choice === 'none') return 'NONE';
  throw invalidRequestError(
    'Cohere cannot force one named tool; use tool_choice "auto", "required" or "none".',
    'tool_choice',
    'unsupported_value',
  );
}

/**
 * OpenAI chat request -> Cohere v2 chat body: system/developer -> `system` messages; user text and `image_url` parts
 * kept; assistant `tool_calls` kept (same shape); `tool` messages kept (`tool_call_id`, text content); `tools` kept
 * (same shape); `tool_choice` required/none -> `REQUIRED`/`NONE` (a named tool is a 400); `top_p` -> `p`, `stop` ->
 * `stop_sequences`, `max_completion_tokens`/`max_tokens` -> `max_tokens`; `response_format` json_object / json_schema
 * -> `{type: "json_object", json_schema?}`; `seed`, `temperature`, penalties as they are. `n` > 1 is a 400 (Cohere
 * answers one choice); audio output (`modalities`, `audio`) and legacy `functions` / `function_call` are 400s naming
 * them. Every other field (`user`, `logprobs`, `top_logprobs`, `logit_bias`, `parallel_tool_calls`, `service_tier`,
 * `store`, `metadata`, unknown ones) has no Cohere equivalent: dropped, each reported through `warn` (an
 * `x-switchyard-warning`), per core's `checkRequestParameters`.
 * @see https://docs.cohere.com/reference/chat
 */
export function convertToCohereChat(
  request: ChatCompletionRequest,
  warn: (warning: GatewayWarning) => void = () => {},
): Record<string, unknown> {
  if ((request.n ?? 1) > 1)
    throw invalidRequestError('Cohere answers one choice per request; use n = 1.', 'n', 'unsupported_value');
  for (const warning of checkRequestParameters(request, { upstream: 'Cohere', handled: HANDLED, refused: REFUSED }))
    warn(warning);
  const messages: CohereMessage[] = request.messages.map((message, i) => {
    const param = `messages[${i}].content`;
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: text(message.content, param) };
      case 'user':
        return { role: 'user', content: userContent(message.content, param) };
      case 'assistant': {
        const out: CohereMessage = { role: 'assistant' };
        const content = text(message.content, param);
        if (content) out.content = content;
        if (message.tool_calls?.length)
          out.tool_calls = message.tool_calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.function.name, arguments: c.function.arguments },
          }));
        return out;
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.tool_call_id, content: text(message.content, param) };
      default:
        throw invalidRequestError(`Cohere does not accept the role '${message.role}'.`, `messages[${i}].role`);
    }
  });
  const body: Record<string, unknown> = { model: request.model, messages };
  if (request.stream) body.stream = true;
  if (request.tools?.length) body.tools = request.tools;
  const choice = toolChoice(request.tool_choice);
  if (choice) body.tool_choice = choice;
  if (request.temperature != null) body.temperature = request.temperature;
  if (request.top_p != null) body.p = request.top_p;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens != null) body.max_tokens = maxTokens;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stop?.length) body.stop_sequences = stop;
  if (request.seed != null) body.seed = request.seed;
  if (request.frequency_penalty != null) body.frequency_penalty = request.frequency_penalty;
  if (request.presence_penalty != null) body.presence_penalty = request.presence_penalty;
  const format = request.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
  else if (format?.type === 'json_schema')
    body.response_format = { type: 'json_object', json_schema: format.json_schema?.schema };
  return body;
}
