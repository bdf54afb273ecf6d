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
  /**
   * The string values of {@link LONG_STRING_BYTES} or more, in the order of the text, when the scan reached the end of
   * a body that repeats no key (empty otherwise): what `parseAroundLongStrings` may take from the text unparsed.
   */
  longStrings: LongJsonString[];
}

/** Strings of at least this many bytes (16 KiB) between their quotes are listed by {@link scanTopLevelValue}. */
export const LONG_STRING_BYTES = 16 * 1024;

/** A string value of at least {@link LONG_STRING_BYTES} that {@link scanTopLevelValue} found. */
export interface LongJsonString {
  /** The byte offset of its opening quote. */
  open: number;
  /** The byte offset of its closing quote. */
  close: number;
  /** Where it lies: the object keys (as parsed) and array indexes from the body's root down to it. */
  path: (string | number)[];
}

/**
 * One pass over a JSON request body (`bytes`, UTF-8, not yet parsed) that checks its nesting depth, as
 * `exceedsJsonDepth` does, and finds where the JSON text of the value of the top-level property `key` lies, when
 * forwarding that text says exactly what `JSON.parse` reads from it: `key` appears once at the top level, spelled
 * plainly, its value is an array or an object, and no object inside the body repeats a key (a validator and an upstream
 * could read a repeated key differently). The text need not be valid JSON (nothing is then found; the parse refuses
 * it). It also lists the string values of {@link LONG_STRING_BYTES} or more and where they lie (`longStrings`). Strings
 * are skipped with the native `indexOf`: microseconds for a 400 KB prompt.
 * @see https://www.rfc-editor.org/rfc/rfc8259
 */
export function scanTopLevelValue(bytes: Buffer, key: string, maxDepth: number): TopLevelValueScan {
  const scan = new JsonScan(bytes, Buffer.from(JSON.stringify(key)));
  const outcome = scan.run(maxDepth);
  if (outcome === 'too_deep') return { tooDeep: true, range: undefined, longStrings: [] };
  if (outcome !== 'ok') return { tooDeep: false, range: undefined, longStrings: [] };
  const { start, end, longStrings } = scan;
  if (scan.keyRepeated || start === -1 || end === -1) return { tooDeep: false, range: undefined, longStrings };
  const first = bytes[start];
  if (first !== 0x5b && first !== 0x7b) return { tooDeep: false, range: undefined, longStrings };
  return { tooDeep: false, range: [start, end], longStrings };
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
  /** The string values of {@link LONG_STRING_BYTES} or more seen so far. */
  readonly longStrings: LongJsonString[] = [];
  readonly #bytes: Buffer;
  readonly #keyBytes: Buffer;
  /** Per open container: the keys an object has seen (undefined for an array). */
  readonly #keys: (Set<string> | undefined)[] = [];
  /** Per open container: the key last seen in an object, the index of the current element in an array. */
  readonly #path: (string | number)[] = [];
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
        this.#path.push(c === 0x7b ? '' : 0);
        if (this.#keys.length > maxDepth) return 'too_deep';
      } else if (c === 0x7d || c === 0x5d) {
        if (this.#keys.length === 2 && this.start !== -1 && this.end === -1 && i > this.start) this.end = i + 1;
        this.#keys.pop();
        this.#path.pop();
      } else if (c === 0x2c) {
        const last = this.#path.length - 1;
        const index = this.#path[last];
        if (typeof index === 'number') this.#path[last] = index + 1;
      }
    }
    return this.#repeated ? 'repeated_key' : 'ok';
  }

  /**
   * A string from `open` to `close` (its quotes): a key when ':' follows it in an object, else a value. False when a
   * key's escapes are not JSON's (the parse refuses the body).
   */
  #string(open: number, close: number): boolean {
    const keys = this.#keys.at(-1);
    if (!keys) return this.#value(open, close);
    const colon = skipSpace(this.#bytes, close + 1);
    if (this.#bytes[colon] !== 0x3a) return this.#value(open, close);
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
    this.#path[this.#path.length - 1] = name;
    if (this.#keys.length === 1 && this.#isKey(open, close + 1)) {
      if (this.start !== -1) this.keyRepeated = true;
      this.start = skipSpace(this.#bytes, colon + 1);
    }
    return true;
  }

  /** A string value from `open` to `close` (its quotes): listed when it is long and inside a container. */
  #value(open: number, close: number): true {
    if (close - open - 1 >= LONG_STRING_BYTES && this.#path.length > 0) {
      this.longStrings.push({ open, close, path: this.#path.slice() });
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
