import { jsonStringEnd } from './json-string-end.js';

/** Deepest nesting of objects and arrays accepted in a JSON request body. Real requests (tool schemas included) stay far below. */
export const MAX_JSON_DEPTH = 64;

/**
 * True when the JSON text in `bytes` nests objects/arrays deeper than `maxDepth`. One pass over the bytes (strings and
 * their escapes skipped), run before `JSON.parse`, so a 100,000-deep body is refused without building it (deep values
 * overflow the stack of everything that walks them later). The text need not be valid JSON. A string is skipped with
 * the native `indexOf` to its closing quote rather than byte by byte: a prompt of hundreds of KB costs next to nothing.
 */
export function exceedsJsonDepth(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      i = jsonStringEnd(bytes, i + 1);
      if (i === -1) return false;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
