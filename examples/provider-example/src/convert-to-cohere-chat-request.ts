import { type ChatCompletionRequest, invalidRequestError } from '@switchyard/core';
import type { CohereChatRequest, CohereMessage } from './cohere-types.js';

function textOf(content: unknown, index: number): string {
  if (typeof content === 'string') return content;
  if (content == null) return '';
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: string; text?: string }, p) => {
        if (part.type === 'text') return part.text ?? '';
        throw invalidRequestError(
          `This adapter supports text content only; '${part.type}' parts are not supported.`,
          `messages[${index}].content[${p}]`,
        );
      })
      .join('');
  }
  throw invalidRequestError('Unsupported message content.', `messages[${index}].content`);
}

/**
 * OpenAI chat request -> Cohere v2 chat body: `system` and `developer` messages become Cohere `system` messages, user
 * and assistant text is kept, `top_p` becomes `p`, `stop` becomes `stop_sequences`. Throws 400 naming the field for
 * what Cohere cannot do here: tools, tool messages, non-text content, `n` > 1, JSON output (`response_format` other
 * than `text`).
 * @see https://docs.cohere.com/reference/chat
 */
export function convertToCohereChatRequest(request: ChatCompletionRequest): CohereChatRequest {
  if ((request.n ?? 1) > 1) throw invalidRequestError('Cohere returns one choice per request; use n = 1.', 'n');
  if (request.tools?.length) throw invalidRequestError('This adapter does not support tools.', 'tools');
  if (request.response_format && request.response_format.type !== 'text') {
    throw invalidRequestError(
      `This adapter does not support JSON output ('response_format' of type '${request.response_format.type}').`,
      'response_format',
    );
  }
  const messages: CohereMessage[] = request.messages.map((message, index) => {
    if (message.role === 'tool' || message.role === 'function')
      throw invalidRequestError('This adapter does not support tool messages.', `messages[${index}].role`);
    const role = message.role === 'developer' ? 'system' : message.role;
    return { role, content: textOf(message.content, index) };
  });
  const stop = typeof request.stop === 'string' ? [request.stop] : (request.stop ?? undefined);
  const body: CohereChatRequest = { model: request.model, messages };
  if (request.stream) body.stream = true;
  if (request.temperature != null) body.temperature = request.temperature;
  if (request.top_p != null) body.p = request.top_p;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens != null) body.max_tokens = maxTokens;
  if (stop?.length) body.stop_sequences = stop;
  if (request.seed != null) body.seed = request.seed;
  if (request.frequency_penalty != null) body.frequency_penalty = request.frequency_penalty;
  if (request.presence_penalty != null) body.presence_penalty = request.presence_penalty;
  return body;
}
