const LF = 10;
const CR = 13;
/** `data: `, byte by byte. */
const DATA_FIELD = [100, 97, 116, 97, 58, 32];

/**
 * The offsets of the read being split, reused across calls (the split never awaits): the exact-size array handed out
 * is one copy of its first entries, not an array grown by pushes (about 2.3 KB of backing stores per 100-event read,
 * against 0.8 KB).
 */
const scratch: number[] = [];

/**
 * `splitPlainSSEText` on the bytes of one network read, without decoding them: when `bytes` holds only events of
 * one `data: <line>` each, every one ended by `\n\n`, nothing before, between or after (no comments, no other fields,
 * no `\r`), the last event complete, returns the byte offset just past each event's `\n\n` (event `i` is then
 * `bytes[ends[i - 1] ?? 0, ends[i])`, its data the bytes between its `data: ` and its `\n\n`: a new array, at least one
 * offset); returns undefined for anything else. Valid UTF-8 is the caller's check: a line feed byte is never part of a
 * longer UTF-8 sequence, so the offsets hold for any text.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export function splitPlainSSEBytes(bytes: Uint8Array): number[] | undefined {
  const length = bytes.length;
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, length);
  if (length === 0 || buffer.indexOf(CR) !== -1) return undefined;
  let at = 0;
  let count = 0;
  while (at < length) {
    for (let i = 0; i < DATA_FIELD.length; i++) if (bytes[at + i] !== DATA_FIELD[i]) return undefined;
    const lineEnd = buffer.indexOf(LF, at + DATA_FIELD.length);
    if (lineEnd === -1 || bytes[lineEnd + 1] !== LF) return undefined;
    at = lineEnd + 2;
    // Written in order from 0, so the array stays packed and keeps its capacity from read to read.
    scratch[count++] = at;
  }
  return scratch.slice(0, count);
}
