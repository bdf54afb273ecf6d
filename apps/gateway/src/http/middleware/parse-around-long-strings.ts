import type { LongJsonString } from './top-level-value-range.js';

/** Whether the bytes from `from` to `to` hold neither a backslash nor a control character (JSON's raw string text). */
function isRawStringText(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i]!;
    if (c < 0x20 || c === 0x5c) return false;
  }
  return true;
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

/**
 * `JSON.parse(text)` of an ASCII body (`text` is `bytes` decoded, so byte and character offsets agree) without
 * parsing its long strings (`strings`, from `scanTopLevelValue`): V8's parse reads a 400 KB prompt character by
 * character (2-3 ms on a loaded 2-core machine), while a string whose bytes hold no backslash and no control
 * character means exactly its text, which a slice of `text` gives without copying it. The text with each such string
 * replaced by `""` is parsed (so a body that is not JSON is refused as before: a raw string is always a valid token,
 * and an empty one is too), then each string is put back where it lies. Any other string, or one under a key
 * `__proto__`, is parsed as before. Throws the `SyntaxError` that `JSON.parse` throws.
 * @see https://www.rfc-editor.org/rfc/rfc8259#section-7
 */
export function parseAroundLongStrings(text: string, bytes: Buffer, strings: readonly LongJsonString[]): unknown {
  const raw = strings.filter((s) => !s.path.includes('__proto__') && isRawStringText(bytes, s.open + 1, s.close));
  if (raw.length === 0) return JSON.parse(text);
  let skeleton = '';
  let at = 0;
  for (const string of raw) {
    skeleton += `${text.slice(at, string.open)}""`;
    at = string.close + 1;
  }
  const value: unknown = JSON.parse(skeleton + text.slice(at));
  for (const string of raw) {
    // The scan and the parse agree on where every string lies, so this does not fail; if it did, the text is parsed.
    if (!placeAt(value, string.path, text.slice(string.open + 1, string.close))) return JSON.parse(text);
  }
  return value;
}
