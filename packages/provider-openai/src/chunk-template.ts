import type { ChatCompletionChunk } from '@switchyard/core';

const CONTENT_KEY = '"content":"';
const OBFUSCATION_KEY = ',"obfuscation":"';

/**
 * Recognises, without parsing, the plain text deltas of an OpenAI chat stream: the events that repeat the last parsed
 * and checked text delta (the template) byte for byte except for the string of `delta.content` and, when present, the
 * random `obfuscation` padding OpenAI appends. Such an event is a valid chunk with the template's id, model, choice
 * index and no usage, finish reason or error, so it can be forwarded as it came. Everything else (a role, tool calls,
 * a finish reason, usage, an error, another shape, any odd escape) does not match and is parsed and checked as usual.
 * One instance per stream; the template follows the stream (see {@link learn}).
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
export class ChunkTemplate {
  /** The template's text up to and including `"content":"`. */
  #prefix?: string;
  /** The template's text after the content string; when it ends with `obfuscation`, up to and including its opening quote. */
  #suffix = '';
  #obfuscated = false;
  /** {@link #prefix} and {@link #suffix} as UTF-8 bytes, for {@link matchBytes}. */
  #prefixBytes?: Buffer;
  #suffixBytes: Buffer = Buffer.alloc(0);

  /**
   * Makes `chunk` (parsed and checked from `text`) the template when it is a plain text delta: one choice whose delta
   * holds only `content` (a string), no finish reason, no usage, one line of text with exactly one `"content":"`.
   */
  learn(chunk: ChatCompletionChunk, text: string): void {
    const choice = chunk.choices.length === 1 ? chunk.choices[0] : undefined;
    const delta = choice?.delta as Record<string, unknown> | undefined;
    if (!choice || choice.finish_reason != null || chunk.usage != null || !delta || typeof delta.content !== 'string')
      return;
    for (const key in delta) if (key !== 'content') return;
    if (text.indexOf('\n') !== -1 || text.indexOf('\r') !== -1) return;
    const at = text.indexOf(CONTENT_KEY);
    if (at === -1 || text.indexOf(CONTENT_KEY, at + 1) !== -1) return;
    const start = at + CONTENT_KEY.length;
    const end = stringEnd(text, start);
    if (end === -1) return;
    let suffix = text.slice(end + 1);
    const padding = suffix.lastIndexOf(OBFUSCATION_KEY);
    const obfuscated =
      padding !== -1 &&
      suffix.endsWith('"}') &&
      plainString(suffix, padding + OBFUSCATION_KEY.length, suffix.length - 2);
    if (obfuscated) suffix = suffix.slice(0, padding + OBFUSCATION_KEY.length);
    this.#prefix = text.slice(0, start);
    this.#suffix = suffix;
    this.#obfuscated = obfuscated;
    this.#prefixBytes = Buffer.from(this.#prefix);
    this.#suffixBytes = Buffer.from(suffix);
  }

  /** Length of the template's text up to its content string's opening quote included, bytes (0 before one is learnt). */
  get prefixBytes(): number {
    return this.#prefixBytes?.length ?? 0;
  }

  /**
   * {@link match} on the data of one event of a plain read, without decoding it: `bytes[start, end)` (valid UTF-8, one
   * line). True when it is a plain text delta like the template: its content string then starts {@link prefixBytes}
   * after `start`, closes at its first quote not escaped, and decodes (checked here with JSON.parse when it has escapes).
   */
  matchBytes(bytes: Uint8Array, start: number, end: number): boolean {
    const prefix = this.#prefixBytes;
    const suffix = this.#suffixBytes;
    if (prefix === undefined || end - start < prefix.length + 1 + suffix.length || !bytesAt(bytes, start, prefix))
      return false;
    const contentStart = start + prefix.length;
    // The closing quote of the content string; an escape makes it need decoding (checked with JSON.parse below).
    let close = contentStart;
    let escaped = false;
    for (; close < end; close++) {
      const byte = bytes[close]!;
      if (byte === QUOTE) break;
      if (byte === BACKSLASH) {
        escaped = true;
        close++;
      } else if (byte < 0x20) return false;
    }
    const tail = close + 1 + suffix.length;
    if (close >= end || tail > end || !bytesAt(bytes, close + 1, suffix)) return false;
    if (
      this.#obfuscated
        ? !(bytes[end - 2] === QUOTE && bytes[end - 1] === BRACE && tail <= end - 2 && plainBytes(bytes, tail, end - 2))
        : tail !== end
    )
      return false;
    if (escaped) {
      try {
        JSON.parse(
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8', contentStart - 1, close + 1),
        );
      } catch {
        return false;
      }
    }
    return true;
  }

  /** The decoded `delta.content` of `text` when it is a plain text delta like the template, else undefined. */
  match(text: string): string | undefined {
    const prefix = this.#prefix;
    // Equality of slices, which V8 compares in bulk, costs a third of `startsWith` on these strings (~250 characters).
    if (prefix === undefined || text.slice(0, prefix.length) !== prefix) return undefined;
    const start = prefix.length;
    const end = stringEnd(text, start);
    const tail = end + 1 + this.#suffix.length;
    if (end === -1 || text.slice(end + 1, tail) !== this.#suffix) return undefined;
    // Obfuscated: the padding string closes after the template's suffix opened it, and the object closes after it.
    const padded = tail <= text.length - 2 && text.endsWith('"}') && plainString(text, tail, text.length - 2);
    if (this.#obfuscated ? !padded : tail !== text.length) return undefined;
    if (plainString(text, start, end)) return text.slice(start, end);
    try {
      return JSON.parse(text.slice(start - 1, end + 1)) as string;
    } catch {
      return undefined;
    }
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const BRACE = 125;

/** True when `bytes` holds `expected` at offset `at` (a native compare: a sixth of a loop's time on ~250 bytes). */
function bytesAt(bytes: Uint8Array, at: number, expected: Buffer): boolean {
  return at + expected.length <= bytes.length && expected.compare(bytes, at, at + expected.length) === 0;
}

/** {@link plainString} on bytes: `bytes[start, end)` holds no quote, backslash or control character. */
function plainBytes(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (byte < 0x20 || byte === QUOTE || byte === BACKSLASH) return false;
  }
  return true;
}

/** The index of the quote that closes the JSON string starting at `start` (after its opening quote), or -1. */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start);
  while (quote !== -1) {
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/** True when `text[start, end)` holds no quote, backslash or control character (a JSON string's body as it is). */
function plainString(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 34 || code === 92) return false;
  }
  return true;
}
