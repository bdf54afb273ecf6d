import { readUpstreamJson, type sendUpstreamRequest } from '@switchyard/core';
import { type AnthropicMessagesResponse, anthropicMessageSchema } from './anthropic-response-schemas.js';

/**
 * Reads a whole `POST /v1/messages` answer and validates it. Throws 502 `upstream_invalid_response` when the body is
 * not JSON or not a message (no `id`, `model`, `content` array, a text block without text...), 502/504 when the body
 * breaks off or stalls, the abort reason when `signal` aborts.
 * @see https://docs.anthropic.com/en/api/messages#response
 */
export async function readAnthropicMessage(
  provider: string,
  response: Awaited<ReturnType<typeof sendUpstreamRequest>>,
  signal: AbortSignal,
): Promise<AnthropicMessagesResponse> {
  return readUpstreamJson(provider, response, signal, anthropicMessageSchema);
}
