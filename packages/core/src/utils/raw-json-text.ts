/**
 * The exact JSON text an upstream sent for an object the gateway parsed (a chat completion, a stream chunk, an
 * embeddings answer), so that an answer the gateway does not change is forwarded as the upstream's bytes instead of
 * being serialised again (`JSON.stringify` of a 16 x 1536 float answer costs more than everything else the gateway
 * does for it). Held in a non-enumerable symbol property of the object (cheaper per chunk than a WeakMap), so the text
 * goes away with the object, and spreads or copies of the object (`{...chunk}`, `Object.assign`, `structuredClone`)
 * never carry it; `JSON.stringify` ignores it.
 *
 * Whoever changes such an object in place after it was remembered (usage normalised, fields rewritten) must call
 * {@link forgetJsonText}, or the client gets the upstream's unchanged text.
 */
const TEXT = Symbol('switchyard.jsonText');
const BYTES = Symbol('switchyard.jsonBytes');

/**
 * Remembers `text` as the JSON text of `value` (which `JSON.parse(text)` produced), and `bytes`, when given, as that
 * text's UTF-8 encoding as it came off the wire (so that a server writes it without encoding the text again).
 */
export function rememberJsonText(value: object, text: string, bytes?: Buffer): void {
  Object.defineProperty(value, TEXT, { value: text, writable: true, configurable: true, enumerable: false });
  if (bytes)
    Object.defineProperty(value, BYTES, { value: bytes, writable: true, configurable: true, enumerable: false });
}

/** The JSON text remembered for `value`, if any (see {@link rememberJsonText}). */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as { [TEXT]?: string })[TEXT] : undefined;
}

/** Forgets the JSON text (and bytes) of `value`, after it was changed in place. */
export function forgetJsonText(value: object): void {
  const held = value as { [TEXT]?: string; [BYTES]?: Buffer };
  if (held[TEXT] !== undefined) held[TEXT] = undefined;
  if (held[BYTES] !== undefined) held[BYTES] = undefined;
}

/** `value` as JSON text: the upstream's own text when it was remembered and not forgotten, else `JSON.stringify(value)`. */
export function toJsonText(value: unknown): string {
  return jsonTextOf(value) ?? JSON.stringify(value);
}

/**
 * `value` as the bytes of a JSON body: the upstream's own bytes when they were remembered and not forgotten (see
 * {@link rememberJsonText}), else its JSON text ({@link toJsonText}) for the server to encode as UTF-8.
 */
export function toJsonBody(value: unknown): Buffer | string {
  const bytes = typeof value === 'object' && value !== null ? (value as { [BYTES]?: Buffer })[BYTES] : undefined;
  return bytes ?? toJsonText(value);
}
