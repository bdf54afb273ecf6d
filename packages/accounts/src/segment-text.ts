/**
 * Longest stretch of text without a piece boundary ({@link isPieceBoundary}) handed to the BPE tokenizer in one call,
 * 256 characters. gpt-tokenizer's byte-pair merging is super-linear in the length of one pre-tokenizer piece (a run of
 * letters without a space, such as 65,536 random CJK characters: 10.8 s as one piece, about 0.5 s in 256-character
 * pieces), so such a run is counted 256 characters at a time.
 */
export const RUN_CHARS = 256;
/** Most characters counted in one call of the tokenizer, 4,096 (under 1 ms of ordinary text, 30 ms of worst case). */
export const SEGMENT_CHARS = 4096;

type CharClass = 'letter' | 'mark' | 'number' | 'space' | 'other';

const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
const NUMBER = /^\p{N}$/u;
const SPACE = /^\s$/u;

function classify(codePoint: number): CharClass {
  if (codePoint < 128) {
    if ((codePoint >= 65 && codePoint <= 90) || (codePoint >= 97 && codePoint <= 122)) return 'letter';
    if (codePoint >= 48 && codePoint <= 57) return 'number';
    return codePoint === 32 || (codePoint >= 9 && codePoint <= 13) ? 'space' : 'other';
  }
  const char = String.fromCodePoint(codePoint);
  if (LETTER.test(char)) return 'letter';
  if (MARK.test(char)) return 'mark';
  if (NUMBER.test(char)) return 'number';
  return SPACE.test(char) ? 'space' : 'other';
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The code point that ends just before `index` (both halves of a surrogate pair). */
function codePointBefore(text: string, index: number): number {
  const low = text.charCodeAt(index - 1);
  return isLowSurrogate(low) && index >= 2 ? (text.codePointAt(index - 2) ?? low) : low;
}

/**
 * Whether `index` is a boundary between two pieces of the `o200k_base` pre-tokenizer whatever the text around it, so
 * that counting the two sides apart gives the same tokens as counting the whole: after a letter (unless an apostrophe
 * follows: `'s`, `'re`... join the word), after a number, or after other punctuation when a number or a blank other
 * than a line break follows. Never next to a combining mark (both a letter and punctuation to the pre-tokenizer), nor
 * between the halves of a surrogate pair.
 * @see https://github.com/niieani/gpt-tokenizer/blob/main/src/encodingParams/constants.ts (O200K_TOKEN_SPLIT_PATTERN)
 */
export function isPieceBoundary(text: string, index: number): boolean {
  const next = text.charCodeAt(index);
  if (isLowSurrogate(next)) return false;
  const before = classify(codePointBefore(text, index));
  const after = classify(text.codePointAt(index) ?? next);
  if (before === 'letter') return after !== 'letter' && after !== 'mark' && next !== 39; // '
  if (before === 'number') return after !== 'number';
  if (before === 'other') return after === 'number' || (after === 'space' && next !== 10 && next !== 13);
  return false;
}

/**
 * Where the segment of `text` that starts at `start` ends: at its last piece boundary ({@link isPieceBoundary}) within
 * {@link SEGMENT_CHARS} characters, or earlier, so that no stretch of more than {@link RUN_CHARS} characters without a
 * boundary (CJK text without punctuation, a long base64 string) is in one segment: such a stretch is cut every
 * {@link RUN_CHARS} characters (off a surrogate pair's middle).
 */
export function segmentEnd(text: string, start: number): number {
  const limit = start + SEGMENT_CHARS;
  if (limit >= text.length && text.length - start <= RUN_CHARS) return text.length;
  let boundary = start;
  const end = Math.min(limit, text.length);
  for (let index = start + 1; index < end; index++) {
    if (isPieceBoundary(text, index)) boundary = index;
    else if (index - boundary >= RUN_CHARS) {
      if (boundary > start) return boundary;
      return isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
    }
  }
  if (end === text.length) return end;
  return boundary > start ? boundary : isLowSurrogate(text.charCodeAt(end)) ? end - 1 : end;
}

/** Tokens counted so far and the characters they cover (a prefix of the text). */
export interface SegmentCount {
  tokens: number;
  chars: number;
}

/**
 * Counts the tokens of `text` segment by segment ({@link segmentEnd}) with `count` (a tokenizer's count of one
 * string), stopping once `performance.now()` passes `deadline` (ms). Ordinary text (a piece boundary at least every
 * 256 characters: prose in any script with punctuation, code, JSON) is counted exactly as a whole; a run of more than
 * 256 characters without a boundary is counted 256 characters at a time (about one token more per cut).
 * @returns the tokens of the counted prefix and its length in characters (`text.length` unless the deadline passed).
 */
export function countInSegments(
  text: string,
  count: (segment: string) => number,
  deadline = Number.POSITIVE_INFINITY,
): SegmentCount {
  let tokens = 0;
  let start = 0;
  while (start < text.length) {
    if (start > 0 && performance.now() > deadline) break;
    const end = segmentEnd(text, start);
    tokens += count(text.slice(start, end));
    start = end;
  }
  return { tokens, chars: start };
}
