import type { ScannedChunk, ScannedRun } from '@switchyard/core';

/**
 * A plain text delta that {@link ChunkTemplate.matchBytes} found in the bytes of a plain read: core's `ScannedChunk`
 * over those bytes, with its `text` (the event's data) and `content` (the decoded `delta.content`) decoded only when
 * asked for (a consumer that iterates chunks, or the gateway counting the text of a call without usage). The gateway's
 * byte pass-through forwards the event's bytes and never asks.
 */
export class PlainDelta implements ScannedChunk {
  run: ScannedRun | undefined = undefined;
  /** The content, when it held escapes (decoded with JSON.parse when the event was matched). */
  decoded: string | undefined = undefined;

  /**
   * @param bytes the read; `bytes[start, end)` is the event's data (one line of chunk JSON).
   * @param contentStart offset of the first byte of the content string (after its opening quote).
   * @param contentEnd offset of the content string's closing quote.
   */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly start: number,
    private readonly end: number,
    private readonly contentStart: number,
    private readonly contentEnd: number,
  ) {}

  get text(): string {
    return this.#utf8(this.start, this.end);
  }

  get content(): string {
    return this.decoded ?? this.#utf8(this.contentStart, this.contentEnd);
  }

  #utf8(start: number, end: number): string {
    const bytes = this.bytes;
    // The read is a Buffer as undici hands it over: no view made per decode.
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    return buffer.toString('utf8', start, end);
  }
}
