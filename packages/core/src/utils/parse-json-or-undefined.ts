/**
 * `JSON.parse(text)`, or `undefined` when `text` is not JSON (an upstream's error body may be HTML, plain text or cut
 * short). Never throws. Used by every adapter's error mapping to read the upstream's error body.
 */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
