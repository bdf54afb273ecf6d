import type { Message } from '@smithy/eventstream-codec';
import { eventStreamHeader } from './event-stream-header.js';
import { type GatewayError, parseJsonOrUndefined } from '@switchyard/core';
import { bedrockErrorBodySchema } from './bedrock-error-schema.js';
import { mapBedrockException } from './map-bedrock-error.js';

/**
 * The GatewayError for a stream's exception frame (`:message-type: exception` or `error`): the name from
 * `:exception-type` (or `:error-code`), the message from the payload (read through `bedrockErrorBodySchema`; a payload
 * that is not JSON or not of that shape gives none) or else the `:error-message` header; mapped by
 * `mapBedrockException` with 502 for unknown names, `secrets` redacted. Never throws.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function mapBedrockStreamException(
  provider: string,
  message: Message,
  payloadText: string,
  secrets: readonly (string | undefined)[],
): GatewayError {
  const read = bedrockErrorBodySchema.safeParse(parseJsonOrUndefined(payloadText));
  const payload = read.success ? read.data : {};
  const name = eventStreamHeader(message, ':exception-type') ?? eventStreamHeader(message, ':error-code');
  return mapBedrockException(
    provider,
    name,
    payload.message || payload.Message || eventStreamHeader(message, ':error-message'),
    502,
    secrets,
  );
}
