/**
 * Bytes decoded per piece by {@link decodeInPieces} (32 KiB): a piece's string (at most 64 KB as UTF-16) stays under
 * V8's largest regular heap object (128 KB), so it is allocated in the young generation rather than in the large-object
 * space, where one 400 KB string cost 1.7-3.0 ms to allocate on this project's bench machine against 0.05-0.3 ms for
 * all of its pieces.
 */
export const TEXT_PIECE_BYTES = 32 * 1024;

/**
 * A body's text held as the strings of its pieces, in order: what a large body decodes to (see
 * {@link decodeInPieces}). It reads like a string for what the large-body parse needs (`length`, `charCodeAt`, `slice`,
 * offsets in UTF-16 units over the whole text); a slice within one piece is V8's sliced string of it (no copy), one
 * across pieces the concatenation of their slices (V8 joins them without copying until something reads the result as
 * a whole). `toString()` gives the whole text as one string.
 */
export class PiecedText {
  /** The text's length in UTF-16 units. */
  readonly length: number;
  readonly #pieces: readonly string[];
  /** Where each piece starts in the text (UTF-16 units). */
  readonly #starts: number[];

  /** The text made of `pieces`, in order. */
  constructor(pieces: readonly string[]) {
    this.#pieces = pieces;
    this.#starts = [];
    let length = 0;
    for (const piece of pieces) {
      this.#starts.push(length);
      length += piece.length;
    }
    this.length = length;
  }

  /** The index of the piece holding the text's UTF-16 offset `at` (`0 <= at < length`). */
  #pieceAt(at: number): number {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.#starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Like `String.prototype.charCodeAt`: the UTF-16 unit at `at`, `NaN` outside the text. */
  charCodeAt(at: number): number {
    if (!(at >= 0 && at < this.length)) return Number.NaN;
    const index = this.#pieceAt(at);
    return this.#pieces[index]!.charCodeAt(at - this.#starts[index]!);
  }

  /**
   * Like `String.prototype.slice` for offsets that are not negative (UTF-16 units; `end` defaults to `length`, both are
   * kept within the text).
   */
  slice(start: number, end: number = this.length): string {
    end = Math.min(end, this.length);
    if (!(start < end)) return '';
    let text = '';
    for (let index = this.#pieceAt(start); index < this.#pieces.length && this.#starts[index]! < end; index++)
      text += this.#part(index, start, end);
    return text;
  }

  /**
   * Whether `pattern` (one that matches a single character, neither global nor sticky) matches within the text from
   * `start` to `end` (UTF-16 units): tested on each piece's slice (no copy), never on the text joined.
   */
  has(pattern: RegExp, start: number, end: number): boolean {
    end = Math.min(end, this.length);
    if (!(start < end)) return false;
    for (let index = this.#pieceAt(start); index < this.#pieces.length && this.#starts[index]! < end; index++)
      if (pattern.test(this.#part(index, start, end))) return true;
    return false;
  }

  /**
   * What piece `index` holds of the text from `start` to `end` (UTF-16 units over the whole text): V8's sliced string
   * of the piece, no copy. The one walk of {@link slice} and {@link has}, which visit the pieces from `start`'s to
   * `end`'s.
   */
  #part(index: number, start: number, end: number): string {
    const piece = this.#pieces[index]!;
    const pieceStart = this.#starts[index]!;
    return piece.slice(Math.max(0, start - pieceStart), Math.min(end - pieceStart, piece.length));
  }

  /** The whole text as one string. */
  toString(): string {
    return this.#pieces.join('');
  }
}

/** A body's text: one string, or the pieces of a large body (see {@link PiecedText}). */
export type BodyText = string | PiecedText;

/**
 * Whether `pattern` (one that matches a single character, neither global nor sticky) matches within `text` from
 * `start` to `end` (UTF-16 units), without joining a {@link PiecedText}'s pieces.
 */
export function textHas(text: BodyText, pattern: RegExp, start: number, end: number): boolean {
  return typeof text === 'string' ? pattern.test(text.slice(start, end)) : text.has(pattern, start, end);
}

/**
 * `bytes` (valid UTF-8: the caller checks with `isUtf8`) decoded as `bytes.toString('utf8')` would, in pieces of about
 * {@link TEXT_PIECE_BYTES}, each ending before the first byte of a character (so each piece decodes whole).
 */
export function decodeInPieces(bytes: Buffer): PiecedText {
  const pieces: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    let end = Math.min(bytes.length, at + TEXT_PIECE_BYTES);
    // A UTF-8 character is at most 4 bytes: at most 3 continuation bytes (10xxxxxx) to step back over.
    for (let back = 0; back < 3 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80; back++) end--;
    pieces.push(bytes.toString('utf8', at, end));
    at = end;
  }
  return new PiecedText(pieces);
}
