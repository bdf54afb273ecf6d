import type { ScannedRun } from '@switchyard/core';

/** Length of `data: `, bytes. */
export const DATA_FIELD_BYTES = 6;
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Plain text deltas that {@link ChunkTemplate.matchBytes} found one after the other in the bytes of a plain read (core's
 * `SSEBatch` with `bytes` and `ends`): core's `ScannedRun` over those bytes, one object for the whole run. A delta's
 * text (the event's data) and content (its decoded `delta.content`) are decoded only when asked for, by its index in
 * the run (a consumer that iterates chunks, or the gateway counting the text of a call without usage); the gateway's
 * byte pass-through forwards the run's bytes and never asks.
 */
export class PlainRun implements ScannedRun {
  count = 1;
  readonly start: number;
  end: number;

  /**
   * @param bytes the read.
   * @param ends byte offset just past each event of the read (event `j` is `bytes[ends[j - 1] ?? 0, ends[j])`).
   * @param first index in `ends` of the run's first event.
   * @param prefixBytes length of the template's text up to its content string's opening quote included, bytes: each
   * delta's content starts that far after its data.
   */
  constructor(
    readonly bytes: Uint8Array,
    private readonly ends: readonly number[],
    private readonly first: number,
    private readonly prefixBytes: number,
  ) {
    this.start = this.#eventStart(first);
    this.end = ends[first]!;
  }

  textAt(i: number): string {
    const event = this.first + i;
    return this.#utf8(this.#eventStart(event) + DATA_FIELD_BYTES, this.ends[event]! - 2);
  }

  contentAt(i: number): string {
    const bytes = this.bytes;
    const event = this.first + i;
    const start = this.#eventStart(event) + DATA_FIELD_BYTES + this.prefixBytes;
    const end = this.ends[event]!;
    // The closing quote, past any escaped character (the match checked that the string closes and decodes).
    let close = start;
    let escaped = false;
    for (; close < end && bytes[close] !== QUOTE; close++) {
      if (bytes[close] === BACKSLASH) {
        escaped = true;
        close++;
      }
    }
    return escaped ? (JSON.parse(this.#utf8(start - 1, close + 1)) as string) : this.#utf8(start, close);
  }

  #eventStart(event: number): number {
    return event === 0 ? 0 : this.ends[event - 1]!;
  }

  #utf8(start: number, end: number): string {
    return utf8Range(this.bytes, start, end);
  }
}

/** `bytes[start, end)` decoded as UTF-8 (a read is a Buffer as undici hands it over: then no view is made). */
export function utf8Range(bytes: Uint8Array, start: number, end: number): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return buffer.toString('utf8', start, end);
}
