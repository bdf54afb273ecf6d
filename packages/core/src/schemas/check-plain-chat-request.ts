import { MAX_CHAT_MESSAGES } from './chat-completion-request.js';
import { MAX_MODEL_ID_LENGTH, MODEL_ID_PATTERN } from './model-id.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const inRange = (value: unknown, min: number, max: number) =>
  value === null || (typeof value === 'number' && value >= min && value <= max);
const intInRange = (value: unknown, min: number, max: number) =>
  value === null || (Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max);
const nullableBoolean = (value: unknown) => value === null || typeof value === 'boolean';

/** A message of the shapes nearly every request is made of: a role and text content (and a name). */
function isPlainMessage(message: unknown): boolean {
  if (!isObject(message) || typeof message.content !== 'string') return false;
  if (message.name !== undefined && typeof message.name !== 'string') return false;
  switch (message.role) {
    case 'system':
    case 'developer':
    case 'user':
      return true;
    case 'assistant':
      return (
        message.tool_calls === undefined &&
        message.refusal === undefined &&
        message.reasoning_content === undefined &&
        message.reasoning_details === undefined
      );
    default:
      return false;
  }
}

/**
 * True when a parsed `POST /v1/chat/completions` body certainly matches `chatCompletionRequestSchema`, checked by hand
 * for the shape of nearly every request (text messages; sampling, token and streaming parameters in range; unknown
 * fields, which pass through). False means "not sure": tools, response formats, stop lists, content parts and anything
 * out of range are left to zod, which names the offending field in its 400. A body this accepts is used as it is (zod
 * would return an equal copy).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function isPlainChatCompletionRequest(body: unknown): boolean {
  if (!isObject(body)) return false;
  const { model, messages } = body;
  if (
    typeof model !== 'string' ||
    model.length === 0 ||
    model.length > MAX_MODEL_ID_LENGTH ||
    !MODEL_ID_PATTERN.test(model)
  )
    return false;
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > MAX_CHAT_MESSAGES) return false;
  for (const message of messages) if (!isPlainMessage(message)) return false;
  for (const key in body) {
    const value = body[key];
    switch (key) {
      case 'model':
      case 'messages':
        break;
      case 'temperature':
        if (!inRange(value, 0, 2)) return false;
        break;
      case 'top_p':
        if (!inRange(value, 0, 1)) return false;
        break;
      case 'presence_penalty':
      case 'frequency_penalty':
        if (!inRange(value, -2, 2)) return false;
        break;
      case 'n':
        if (!intInRange(value, 1, 128)) return false;
        break;
      case 'max_tokens':
      case 'max_completion_tokens':
        if (!intInRange(value, 1, Number.MAX_SAFE_INTEGER)) return false;
        break;
      case 'top_logprobs':
        if (!intInRange(value, 0, 20)) return false;
        break;
      case 'seed':
        if (!intInRange(value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)) return false;
        break;
      case 'stream':
      case 'logprobs':
        if (!nullableBoolean(value)) return false;
        break;
      case 'parallel_tool_calls':
        if (typeof value !== 'boolean') return false;
        break;
      case 'user':
        if (typeof value !== 'string') return false;
        break;
      case 'stream_options':
        if (
          value !== null &&
          (!isObject(value) || (value.include_usage !== undefined && typeof value.include_usage !== 'boolean'))
        )
          return false;
        break;
      case 'stop':
        if (value !== null && typeof value !== 'string') return false;
        break;
      case 'tools':
      case 'tool_choice':
      case 'response_format':
      case 'logit_bias':
      case 'reasoning_effort':
        return false;
      default:
        // Unknown fields pass through, as with the schema's loose object.
        break;
    }
  }
  return true;
}
