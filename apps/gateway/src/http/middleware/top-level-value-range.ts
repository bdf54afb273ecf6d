import { jsonStringEnd } from './json-string-end.js';

/** What {@link scanTopLevelValue} found in a JSON body. */
export interface TopLevelValueScan {
  /** Objects and arrays nest deeper than the depth asked (nothing else is then known). */
  tooDeep: boolean;
  /**
   * Where the value of the top-level key lies, `[start, end)` in bytes, when forwarding that text says exactly what
   * `JSON.parse` reads from it (see {@link scanTopLevelValue}); undefined otherwise.
   */
  range: [start: number, end: number] | undefined;
}

/**
 * One pass over a JSON request body (`bytes`, UTF-8, not yet parsed) that checks its nesting depth, as
 * `exceedsJsonDepth` does, and finds where the JSON text of the value of the top-level property `key` lies, when
 * forwarding that text says exactly what `JSON.parse` reads from it: `key` appears once at the top level, spelled
 * plainly, its value is an array or an object, and no object inside the body repeats a key (a validator and an upstream
 * could read a repeated key differently). The text need not be valid JSON (nothing is then found; the parse refuses
 * it). Strings are skipped with the native `indexOf`: microseconds for a 400 KB prompt.
 * @see https://www.rfc-editor.org/rfc/rfc8259
 */
export function scanTopLevelValue(bytes: Buffer, key: string, maxDepth: number): TopLevelValueScan {
  const scan = new JsonScan(bytes, Buffer.from(JSON.stringify(key)));
  const outcome = scan.run(maxDepth);
  if (outcome === 'too_deep') return { tooDeep: true, range: undefined };
  const { start, end } = scan;
  if (outcome !== 'ok' || scan.keyRepeated || start === -1 || end === -1) return { tooDeep: false, range: undefined };
  const first = bytes[start];
  if (first !== 0x5b && first !== 0x7b) return { tooDeep: false, range: undefined };
  return { tooDeep: false, range: [start, end] };
}

/**
 * A scan of JSON text that finds the value of one top-level key (`start`, `end`: byte offsets of its first byte and
 * past the bracket that closes the container after it; -1 until found). `run` answers `too_deep` past `maxDepth`
 * containers, `unterminated` when the text ends inside a string, `invalid` for a key whose escapes are not JSON's,
 * `repeated_key` when an object repeats a key (keys are no longer looked at then, but the depth is still checked to the
 * end), else `ok`. (No callbacks: a closure stored into an object's field keeps what it reaches alive across V8's
 * young-generation collections; see docs/performance-log.md, session 17, gc.)
 */
class JsonScan {
  start = -1;
  end = -1;
  /** The top-level key appeared more than once. */
  keyRepeated = false;
  readonly #bytes: Buffer;
  readonly #keyBytes: Buffer;
  /** Per open container: the keys an object has seen (undefined for an array). */
  readonly #keys: (Set<string> | undefined)[] = [];
  #repeated = false;

  constructor(bytes: Buffer, keyBytes: Buffer) {
    this.#bytes = bytes;
    this.#keyBytes = keyBytes;
  }

  run(maxDepth: number): 'ok' | 'too_deep' | 'unterminated' | 'invalid' | 'repeated_key' {
    const bytes = this.#bytes;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i];
      if (c === 0x22) {
        const close = jsonStringEnd(bytes, i + 1);
        if (close === -1) return 'unterminated';
        if (!this.#repeated && !this.#string(i, close)) return 'invalid';
        i = close;
      } else if (c === 0x7b || c === 0x5b) {
        this.#keys.push(c === 0x7b ? new Set() : undefined);
        if (this.#keys.length > maxDepth) return 'too_deep';
      } else if (c === 0x7d || c === 0x5d) {
        if (this.#keys.length === 2 && this.start !== -1 && this.end === -1 && i > this.start) this.end = i + 1;
        this.#keys.pop();
      }
    }
    return this.#repeated ? 'repeated_key' : 'ok';
  }

  /**
   * A string from `open` to `close` (its quotes): a key when ':' follows it in an object. False when its escapes are
   * not JSON's (the parse refuses the body).
   */
  #string(open: number, close: number): boolean {
    const keys = this.#keys.at(-1);
    if (!keys) return true;
    const colon = skipSpace(this.#bytes, close + 1);
    if (this.#bytes[colon] !== 0x3a) return true;
    const token = this.#bytes.toString('utf8', open, close + 1);
    let name = token.slice(1, -1);
    if (name.includes('\\')) {
      try {
        name = String(JSON.parse(token));
      } catch {
        return false;
      }
    }
    if (keys.has(name)) this.#repeated = true;
    keys.add(name);
    if (this.#keys.length === 1 && this.#isKey(open, close + 1)) {
      if (this.start !== -1) this.keyRepeated = true;
      this.start = skipSpace(this.#bytes, colon + 1);
    }
    return true;
  }

  /** Whether the token from `keyStart` to `keyEnd` (quotes included) is the key looked for, spelled plainly. */
  #isKey(keyStart: number, keyEnd: number): boolean {
    const key = this.#keyBytes;
    return keyEnd - keyStart === key.length && this.#bytes.compare(key, 0, key.length, keyStart, keyEnd) === 0;
  }
}

/** The index of the first byte at or after `i` that is not JSON whitespace. */
function skipSpace(bytes: Buffer, i: number): number {
  let at = i;
  for (let c = bytes[at]; c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = bytes[at]) at++;
  return at;
}
