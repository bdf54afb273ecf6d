import { customInputOf } from './convert-tool-call-item.js';

/** Where the decoder stands in the arguments text `{"input": "..."}`. */
type State = 'start' | 'raw' | 'key' | 'colon' | 'value' | 'string' | 'closed';

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const INPUT_KEY = '"input"';

/**
 * Decodes a custom tool's input as its call's argument fragments arrive, for `response.custom_tool_call_input.delta`.
 * A translated custom tool is a function with one string argument, so the upstream streams JSON text such as
 * `{"input":"*** Begin Patch\n..."}` in arbitrary pieces (an escape sequence, a `\uXXXX` or a surrogate pair may be
 * split across two). `push(piece)` returns the input text decoded so far that it had not returned before: the
 * characters of the `input` string when it is the object's first key, or the raw text when the arguments are not a
 * JSON object (a model that wrote the input as plain text, which `customInputOf` takes as it is). Other shapes return
 * nothing until `finish`. `finish(args)` returns the rest of the final input (`customInputOf(args)`, `args` the whole
 * arguments text), so the deltas concatenate to exactly the input of `response.custom_tool_call_input.done` (in the
 * one case where they could not, duplicate `input` keys, it returns ''). Never throws.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/response/custom_tool_call_input/delta
 */
export class CustomInputStream {
  #state: State = 'start';
  /** Text received but not decoded yet: leading whitespace, a key in progress, an incomplete escape. */
  #pending = '';
  /** Everything returned so far. */
  #sent = '';

  /** Feeds one argument fragment; returns the newly decoded input text ('' when there is none). */
  push(piece: string): string {
    let text = this.#pending + piece;
    this.#pending = '';
    let out = '';
    while (text.length > 0 && this.#state !== 'closed') {
      if (this.#state === 'raw') {
        out += text;
        break;
      }
      if (this.#state === 'string') {
        const decoded = this.#decodeString(text);
        out += decoded;
        break;
      }
      const trimmed = text.trimStart();
      if (trimmed.length === 0) {
        // Only whitespace so far: keep it (a raw input keeps its leading whitespace).
        if (this.#state === 'start') this.#pending = text;
        break;
      }
      if (this.#state === 'start') {
        if (trimmed[0] === '{') {
          this.#state = 'key';
          text = trimmed.slice(1);
        } else this.#state = 'raw';
      } else if (this.#state === 'key') {
        if (trimmed.startsWith(INPUT_KEY)) {
          this.#state = 'colon';
          text = trimmed.slice(INPUT_KEY.length);
        } else if (INPUT_KEY.startsWith(trimmed)) {
          this.#pending = trimmed;
          break;
        } else this.#state = 'closed';
      } else {
        // 'colon' then 'value': a ':' and the opening quote of the string.
        const expected = this.#state === 'colon' ? ':' : '"';
        if (trimmed[0] !== expected) this.#state = 'closed';
        else this.#state = this.#state === 'colon' ? 'value' : 'string';
        text = trimmed.slice(1);
      }
    }
    // Hold back a high surrogate until its pair arrives, so no delta carries half a character.
    const last = out.charCodeAt(out.length - 1);
    if (out.length > 0 && last >= 0xd800 && last <= 0xdbff && this.#state !== 'closed') {
      this.#pending = this.#state === 'raw' ? out.slice(-1) + this.#pending : `\\u${last.toString(16)}${this.#pending}`;
      out = out.slice(0, -1);
    }
    this.#sent += out;
    return out;
  }

  /** The rest of the final input once every fragment arrived (`args` is the whole arguments text). */
  finish(args: string): string {
    const input = customInputOf(args);
    return input.startsWith(this.#sent) ? input.slice(this.#sent.length) : '';
  }

  /** Decodes JSON string characters of `text` up to the closing quote (then 'closed'); keeps an incomplete escape pending. */
  #decodeString(text: string): string {
    let out = '';
    let i = 0;
    while (i < text.length) {
      const char = text[i]!;
      if (char === '"') {
        this.#state = 'closed';
        return out;
      }
      if (char !== '\\') {
        out += char;
        i++;
        continue;
      }
      const code = text[i + 1];
      if (code === undefined) break;
      if (code === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (hex.length < 4 && /^[0-9a-fA-F]*$/.test(hex)) break;
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.#state = 'closed';
          return out;
        }
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
        continue;
      }
      const simple = SIMPLE_ESCAPES[code];
      if (simple === undefined) {
        this.#state = 'closed';
        return out;
      }
      out += simple;
      i += 2;
    }
    this.#pending = text.slice(i);
    return out;
  }
}
