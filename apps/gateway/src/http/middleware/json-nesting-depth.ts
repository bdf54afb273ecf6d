/** Deepest nesting of objects and arrays accepted in a JSON request body. Real requests (tool schemas included) stay far below. */
export const MAX_JSON_DEPTH = 64;

/**
 * True when the JSON text in `bytes` nests objects/arrays deeper than `maxDepth`. One pass over the bytes (strings and
 * their escapes skipped), run before `JSON.parse`, so a 100,000-deep body is refused without building it (deep values
 * overflow the stack of everything that walks them later). The text need not be valid JSON.
 */
export function exceedsJsonDepth(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
