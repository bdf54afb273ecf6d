import type { Message } from '@smithy/eventstream-codec';
import { eventStreamHeader } from './event-stream-header.js';
import { type ServerSentEvent, upstreamInvalidResponseError } from '@switchyard/core';
import { z } from 'zod';
import { mapBedrockStreamException } from './map-bedrock-stream-exception.js';

const decoder = new TextDecoder();

/**
 * A `chunk` event of InvokeModelWithResponseStream: `{"bytes": "<base64 of one Anthropic stream event's JSON>"}`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html
 */
const invokeChunkSchema = z.looseObject({ bytes: z.string() });
/** The `type` of a decoded Anthropic event (its SSE event name). */
const anthropicEventSchema = z.looseObject({ type: z.string() });

/**
 * InvokeModelWithResponseStream's frames (decoded by `decodeEventStream`) -> Anthropic's stream events as Anthropic
 * sends them (`event` = the event's `type`, `data` = its JSON text, unchanged), for the `/v1/messages` pass-through.
 * An exception frame (`:message-type: exception`) throws the mapped error (see `mapBedrockStreamException`; `secrets`
 * redacted); a chunk that is not base64 JSON with a `type` throws 502 `upstream_invalid_response`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html
 */
export async function* bedrockInvokeEvents(
  messages: AsyncIterable<Message>,
  provider: string,
  secrets: readonly (string | undefined)[],
): AsyncGenerator<ServerSentEvent> {
  for await (const message of messages) {
    const messageType = eventStreamHeader(message, ':message-type');
    const text = decoder.decode(message.body);
    if (messageType === 'exception' || messageType === 'error') {
      throw mapBedrockStreamException(provider, message, text, secrets);
    }
    if (eventStreamHeader(message, ':event-type') !== 'chunk') continue;
    let data: string;
    let type: string;
    try {
      data = Buffer.from(invokeChunkSchema.parse(JSON.parse(text)).bytes, 'base64').toString('utf8');
      type = anthropicEventSchema.parse(JSON.parse(data)).type;
    } catch (error) {
      throw upstreamInvalidResponseError(provider, 'a stream chunk is not an Anthropic event.', error);
    }
    yield { event: type, data, id: undefined };
  }
}
