import { EventStreamCodec, type Message } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

/**
 * Splits an `application/vnd.amazon.eventstream` body into messages as bytes arrive: each frame is
 * `[total length u32][headers length u32][prelude CRC32][headers][payload][message CRC32]`; frames may be split or
 * joined across network reads, so bytes are buffered until a whole frame (its total length) is there, then decoded
 * (and its CRCs checked) by `@smithy/eventstream-codec`. Throws the codec's error on a corrupt frame, and an Error when
 * the body ends inside a frame.
 * @see https://docs.aws.amazon.com/transcribe/latest/dg/event-stream.html
 */
export async function* decodeEventStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<Message> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let buffer = new Uint8Array(0);
  for await (const bytes of body) {
    const joined = new Uint8Array(buffer.length + bytes.length);
    joined.set(buffer);
    joined.set(bytes, buffer.length);
    buffer = joined;
    while (buffer.length >= 4) {
      const total = new DataView(buffer.buffer, buffer.byteOffset, 4).getUint32(0, false);
      if (total < 16) throw new Error(`event-stream frame length ${total} is shorter than a frame's prelude and CRC.`);
      if (buffer.length < total) break;
      yield codec.decode(buffer.subarray(0, total));
      buffer = buffer.subarray(total);
    }
  }
  if (buffer.length > 0) throw new Error('the event stream ended inside a frame.');
}
