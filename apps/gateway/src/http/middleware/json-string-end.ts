/**
 * The index of the quote that ends the JSON string whose text starts at `start` (the byte after its opening quote):
 * the first `"` not escaped by an odd number of backslashes, or -1 when the string does not end. Found with the native
 * `indexOf`, not byte by byte, so a prompt of hundreds of KB costs microseconds.
 * @see https://www.rfc-editor.org/rfc/rfc8259#section-7
 */
export function jsonStringEnd(bytes: Uint8Array, start: number): number {
  for (let quote = bytes.indexOf(0x22, start); quote !== -1; quote = bytes.indexOf(0x22, quote + 1)) {
    let backslashes = 0;
    while (quote - 1 - backslashes >= start && bytes[quote - 1 - backslashes] === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}
