import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** An exception frame for {@link eventStreamFrames}: its `:exception-type` (e.g. `throttlingException`) and message. */
export interface EventStreamException {
  type: string;
  message: string;
}

/**
 * Encodes recorded Bedrock stream events (one `{"<eventType>": <payload>}` JSON per element, as in the recorded
 * `amazon-bedrock-*.chunks.txt` files) as real `application/vnd.amazon.eventstream` frames with
 * `@smithy/eventstream-codec`: headers `:event-type`, `:content-type: application/json`, `:message-type: event`, body =
 * the payload JSON. `exception` appends an exception frame (`:message-type: exception`, `:exception-type`) after the
 * events, as Bedrock sends when a stream fails midway. One `Uint8Array` per frame, ready for `MockReply.chunks`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function eventStreamFrames(payloads: readonly string[], exception?: EventStreamException): Uint8Array[] {
  const frames = payloads.map((line) => {
    const [[eventType, payload]] = Object.entries(JSON.parse(line) as Record<string, unknown>) as [[string, unknown]];
    return codec.encode({
      headers: {
        ':event-type': { type: 'string', value: eventType },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: 'event' },
      },
      body: fromUtf8(JSON.stringify(payload)),
    });
  });
  if (exception) {
    frames.push(
      codec.encode({
        headers: {
          ':exception-type': { type: 'string', value: exception.type },
          ':content-type': { type: 'string', value: 'application/json' },
          ':message-type': { type: 'string', value: 'exception' },
        },
        body: fromUtf8(JSON.stringify({ message: exception.message })),
      }),
    );
  }
  return frames;
}
