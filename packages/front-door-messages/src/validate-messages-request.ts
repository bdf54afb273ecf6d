import { invalidRequestError, validateRequest } from '@switchyard/core';
import {
  type CountTokensRequest,
  MAX_MESSAGES,
  countTokensRequestSchema,
  type MessagesRequest,
  messagesRequestSchema,
} from './messages-request-schema.js';

function checkLength(body: unknown): void {
  const messages = (body as { messages?: unknown } | null)?.messages;
  // Refused before validation, whose cost grows with every message.
  if (Array.isArray(messages) && messages.length > MAX_MESSAGES) {
    throw invalidRequestError(
      `Invalid 'messages': array too long (${messages.length}). Expected at most ${MAX_MESSAGES}.`,
      'messages',
      'array_above_max_length',
    );
  }
}

/**
 * A `POST /v1/messages` body, validated: more than {@link MAX_MESSAGES} messages is a 400 before any entry is read;
 * then {@link messagesRequestSchema} (an empty `messages`, an unknown block type or role, a missing `max_tokens` are
 * 400s naming the field). Throws GatewayError 400.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function validateMessagesRequest(body: unknown): MessagesRequest {
  checkLength(body);
  return validateRequest(messagesRequestSchema, body);
}

/**
 * A `POST /v1/messages/count_tokens` body, validated as {@link validateMessagesRequest} (the same rules, without
 * `max_tokens`). Throws GatewayError 400.
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export function validateCountTokensRequest(body: unknown): CountTokensRequest {
  checkLength(body);
  return validateRequest(countTokensRequestSchema, body);
}
