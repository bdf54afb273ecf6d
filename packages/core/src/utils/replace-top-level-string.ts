const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Index of the quote closing the JSON string whose opening quote is at `open` in `bytes`, or -1 when there is none. */
function closingQuote(bytes: Buffer, open: number): number {
  let close = bytes.indexOf(QUOTE, open + 1);
  while (close !== -1) {
    let backslashes = 0;
    while (bytes[close - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = bytes.indexOf(QUOTE, close + 1);
  }
  return -1;
}

/** Index of the first byte at or after `from` that is not JSON whitespace (space, tab, line feed, carriage return). */
function skipWhitespace(bytes: Buffer, from: number): number {
  let at = from;
  while (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d) at++;
  return at;
}

/** Whether `bytes[start, end)` holds exactly `key` (ASCII, no escapes). */
function holdsKey(bytes: Buffer, start: number, end: number, key: string): boolean {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (bytes[start + i] !== key.charCodeAt(i)) return false;
  return true;
}

/**
 * The byte range `[start, end)` of the string value (quotes included) of the top-level key `key` in the JSON object
 * `bytes`, or `undefined` when `key` is not there exactly once as a key written without escapes whose value is a
 * string, or when any top-level key is written with escapes (it could spell `key`). `bytes` must be JSON that
 * `JSON.parse` accepted.
 */
function topLevelStringRange(bytes: Buffer, key: string): [number, number] | undefined {
  let depth = 0;
  let range: [number, number] | undefined;
  let backslash = bytes.indexOf(BACKSLASH);
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === 0x7b || byte === 0x5b) depth++;
    else if (byte === 0x7d || byte === 0x5d) depth--;
    else if (byte === QUOTE) {
      const close = closingQuote(bytes, at);
      if (close === -1) return undefined;
      const after = skipWhitespace(bytes, close + 1);
      if (depth === 1 && bytes[after] === COLON) {
        if (backslash !== -1 && backslash < at) backslash = bytes.indexOf(BACKSLASH, at);
        if (backslash !== -1 && backslash < close) return undefined;
        if (holdsKey(bytes, at + 1, close, key)) {
          const valueStart = skipWhitespace(bytes, after + 1);
          if (range !== undefined || bytes[valueStart] !== QUOTE) return undefined;
          const valueEnd = closingQuote(bytes, valueStart);
          if (valueEnd === -1) return undefined;
          range = [valueStart, valueEnd + 1];
          at = valueEnd;
          continue;
        }
      }
      at = close;
    }
  }
  return range;
}

/**
 * `bytes`, the UTF-8 JSON text of an object that `JSON.parse` accepted, with the string value of its top-level key
 * `key` (an ASCII name) replaced by `value` (written with `JSON.stringify`): a new buffer, the bytes around the value
 * copied as they are. `undefined` when that cannot be done exactly: `bytes` is not an object, the key is missing,
 * repeated, written with escapes (or another top-level key is), or its value is not a string. For forwarding an
 * upstream's answer with one field changed (e.g. `model`) without serialising it again.
 * @see https://www.rfc-editor.org/rfc/rfc8259 (JSON's grammar: strings, escapes, whitespace)
 */
export function replaceTopLevelString(bytes: Buffer, key: string, value: string): Buffer | undefined {
  if (bytes[skipWhitespace(bytes, 0)] !== 0x7b) return undefined;
  const range = topLevelStringRange(bytes, key);
  if (range === undefined) return undefined;
  const replacement = JSON.stringify(value);
  const size = Buffer.byteLength(replacement);
  const out = Buffer.allocUnsafe(bytes.length - (range[1] - range[0]) + size);
  bytes.copy(out, 0, 0, range[0]);
  out.write(replacement, range[0]);
  bytes.copy(out, range[0] + size, range[1]);
  return out;
}
