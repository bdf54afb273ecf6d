import { isUtf8 } from 'node:buffer';
import { type BodyText, textHas } from './pieced-text.js';
import type { LongJsonString } from './top-level-value-range.js';

/**
 * The UTF-16 length of the UTF-8 bytes from `from` to `to` (valid UTF-8: a character of 4 bytes is 2 UTF-16 units,
 * any other 1), or -1 when they hold a backslash or a control character (not JSON's raw string text).
 */
function rawStringLength(bytes: Buffer, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const c = bytes[i]!;
    if (c < 0x20 || c === 0x5c) return -1;
    if ((c & 0xc0) !== 0x80) units += c >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** A character that a raw JSON string cannot hold as it is: a backslash or a control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
const NOT_RAW = /[\x00-\x1f\\]/;

/** The UTF-16 length of the valid UTF-8 bytes from `from` to `to`. */
function utf16Length(bytes: Buffer, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const c = bytes[i]!;
    if ((c & 0xc0) !== 0x80) units += c >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** Sets `root` at `path` to `value` where the parse left the empty string in its place; false when it is not there. */
function placeAt(root: unknown, path: readonly (string | number)[], value: string): boolean {
  let at = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (typeof at !== 'object' || at === null) return false;
    at = (at as Record<string | number, unknown>)[path[i]!];
  }
  const last = path[path.length - 1]!;
  if (typeof at !== 'object' || at === null || !Object.hasOwn(at, last)) return false;
  const holder = at as Record<string | number, unknown>;
  if (holder[last] !== '') return false;
  holder[last] = value;
  return true;
}

/** A long string taken from the text: where it lies, and its quotes' offsets in the text (UTF-16 units). */
interface RawString {
  path: (string | number)[];
  open: number;
  close: number;
}

/**
 * The long strings (`strings`, byte offsets in `bytes`) whose text means exactly what it says (no backslash, no
 * control character), with their quotes' offsets in `text` (`bytes` decoded; the same offsets when `ascii`, else
 * counted in UTF-16 units over the bytes before each, which must then be valid UTF-8).
 */
function rawStringsOf(text: BodyText, bytes: Buffer, strings: readonly LongJsonString[], ascii: boolean): RawString[] {
  const raw: RawString[] = [];
  let byteAt = 0;
  let charAt = 0;
  for (const string of strings) {
    if (string.path.includes('__proto__')) continue;
    // In an ASCII body a character is a byte: V8's regular expression checks the text (a third of the time of the
    // byte loop, which also counts the UTF-16 units that a non-ASCII body needs).
    const length = ascii
      ? textHas(text, NOT_RAW, string.open + 1, string.close)
        ? -1
        : string.close - string.open - 1
      : rawStringLength(bytes, string.open + 1, string.close);
    if (length === -1) continue;
    const open = ascii ? string.open : charAt + utf16Length(bytes, byteAt, string.open);
    const close = open + 1 + length;
    // Both quotes must be where they were counted (they are; if not, the text is parsed whole).
    if (text.charCodeAt(open) !== 0x22 || text.charCodeAt(close) !== 0x22) return [];
    raw.push({ path: string.path, open, close });
    byteAt = string.close;
    charAt = close;
  }
  return raw;
}

/**
 * `JSON.parse(text)` of a body (`text` is `bytes` decoded, one string or its pieces (`PiecedText`), whose slices are
 * then concatenations of the pieces' slices; `ascii` when every byte is below 0x80) without parsing its
 * long strings (`strings`, from `scanTopLevelValue`): V8's parse reads a 400 KB prompt character by character (2-3
 * ms on a loaded 2-core machine), while a string whose bytes hold no backslash and no control character means exactly
 * its text, which a slice of `text` gives without copying it. The text with each such string replaced by `""` is
 * parsed (so a body that is not JSON is refused as before: a raw string is always a valid token, and an empty one is
 * too), then each string is put back where it lies. Any other string, one under a key `__proto__`, or any string of a
 * body that is not valid UTF-8, is parsed as before. Throws the `SyntaxError` that `JSON.parse` throws.
 * @see https://www.rfc-editor.org/rfc/rfc8259#section-7
 */
export function parseAroundLongStrings(
  text: BodyText,
  bytes: Buffer,
  strings: readonly LongJsonString[],
  ascii: boolean,
): unknown {
  const raw = ascii || isUtf8(bytes) ? rawStringsOf(text, bytes, strings, ascii) : [];
  if (raw.length === 0) return JSON.parse(String(text));
  let skeleton = '';
  let at = 0;
  for (const string of raw) {
    skeleton += `${text.slice(at, string.open)}""`;
    at = string.close + 1;
  }
  const value: unknown = JSON.parse(skeleton + text.slice(at));
  for (const string of raw) {
    // The scan and the parse agree on where every string lies, so this does not fail; if it did, the text is parsed.
    if (!placeAt(value, string.path, text.slice(string.open + 1, string.close))) return JSON.parse(String(text));
  }
  return value;
}
