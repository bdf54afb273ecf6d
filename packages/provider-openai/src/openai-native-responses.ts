import {
  type GatewayError,
  type ProviderAdapter,
  parseSSEStream,
  readUpstreamJson,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { mapResponsesStreamError } from './map-responses-stream-error.js';
import { responsesAnswerSchema } from './openai-api.js';
import type { OpenAITransport } from './openai-transport.js';
import { passResponsesEvents } from './pass-responses-events.js';
import { responsesUsageToChat } from './responses-usage-to-chat.js';

/**
 * The `openaiResponses` operation of {@link createOpenAI} with `responses: 'native'`: the Responses request POSTed as
 * it is to `/responses`; the `response` object, or its events (see `passResponsesEvents`) back unchanged, with the usage
 * for metering and the first stream error event mapped to a GatewayError.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
export function nativeResponsesOperation({
  postJson,
  secrets,
}: OpenAITransport): NonNullable<ProviderAdapter['openaiResponses']> {
  return async (request, context) => {
    const response = await postJson('/responses', request, context);
    if (request.stream === true) {
      const contentType = String(response.headers['content-type'] ?? '');
      if (!contentType.startsWith('text/event-stream')) {
        await response.body.dump().catch(() => {});
        throw upstreamInvalidResponseError(
          context.provider,
          `a stream was asked for but it sent '${contentType || 'no content type'}'.`,
        );
      }
      let usage: Record<string, unknown> | undefined;
      let failure: GatewayError | undefined;
      const events = passResponsesEvents(
        parseSSEStream(response.body, { provider: context.provider }),
        (found) => (usage = found),
        (name, data) => (failure ??= mapResponsesStreamError(context.provider, name, data, secrets)),
        context.provider,
      );
      return { events, usage: () => responsesUsageToChat(usage), error: () => failure };
    }
    const json = await readUpstreamJson(context.provider, response, context.signal, responsesAnswerSchema);
    return { json, usage: responsesUsageToChat(json.usage) };
  };
}
