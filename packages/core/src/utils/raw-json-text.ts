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
  holdHidden(value, TEXT, text);
  if (bytes) holdHidden(value, BYTES, bytes);
}

/** Sets `value[key]` as a non-enumerable, writable property (so that spreads, copies and `JSON.stringify` skip it). */
function holdHidden(value: object, key: symbol, held: string | Buffer | undefined): void {
  Object.defineProperty(value, key, { value: held, writable: true, configurable: true, enumerable: false });
}

/** The JSON text remembered for `value`, if any (see {@link rememberJsonText}). */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as { [TEXT]?: string })[TEXT] : undefined;
}

/** The UTF-8 bytes remembered for `value` (see {@link rememberJsonText}), if any. */
export function jsonBytesOf(value: unknown): Buffer | undefined {
  return typeof value === 'object' && value !== null ? (value as { [BYTES]?: Buffer })[BYTES] : undefined;
}

/**
 * After `value` was changed in place: forgets its remembered text and remembers `bytes` as its exact JSON body
 * instead (the upstream's bytes with the change written in, e.g. by `replaceTopLevelString`).
 */
export function replaceJsonBytes(value: object, bytes: Buffer): void {
  holdHidden(value, TEXT, undefined);
  holdHidden(value, BYTES, bytes);
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

/**
 * `body`, a request for an upstream, as a JSON body, with its `messages` written as the text (or bytes) remembered
 * for that array (see {@link rememberJsonText}: the gateway remembers the client's own text of a large body's
 * messages when it says exactly what was parsed, and its bytes when the body is ASCII) rather than serialised again:
 * bytes (the other fields serialised around the remembered ones) when bytes were remembered, else JSON text;
 * `JSON.stringify(body)` when nothing was remembered (or `messages` was replaced, e.g. translated). Whoever changes
 * such an array or a message in it in place must call {@link forgetJsonText} on the array.
 */
export function toRequestJsonBody(body: unknown): string | Buffer {
  const json = toRequestJsonParts(body);
  return typeof json === 'string' ? json : Buffer.concat(json);
}

/**
 * {@link toRequestJsonBody} without copying remembered bytes into one buffer: the JSON text, or, when bytes were
 * remembered, the body's bytes in three parts (the fields before `messages`, the remembered bytes themselves, the
 * rest), to be sent one after the other with their total length as `content-length` (a 400 KB prompt is then not
 * copied again for the upstream).
 */
export function toRequestJsonParts(body: unknown): string | Buffer[] {
  const messages =
    typeof body === 'object' && body !== null
      ? ((body as { messages?: unknown }).messages as { [TEXT]?: string; [BYTES]?: Buffer } | undefined)
      : undefined;
  const text = typeof messages === 'object' && messages !== null ? messages[TEXT] : undefined;
  if (text === undefined) return JSON.stringify(body);
  let head = '';
  let tail: string | undefined;
  for (const [key, value] of Object.entries(body as object)) {
    if (key === 'messages') {
      head += `${head ? ',' : '{'}"messages":`;
      tail = '';
      continue;
    }
    const json = JSON.stringify(value);
    if (json === undefined) continue;
    if (tail === undefined) head += `${head ? ',' : '{'}${JSON.stringify(key)}:${json}`;
    else tail += `,${JSON.stringify(key)}:${json}`;
  }
  const bytes = messages![BYTES];
  if (bytes === undefined) return `${head}${text}${tail}}`;
  return [Buffer.from(head), bytes, Buffer.from(`${tail}}`)];
}
