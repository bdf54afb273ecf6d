import { isAscii } from 'node:buffer';
import { describe, expect, it, vi } from 'vitest';
import { parseAroundLongStrings } from '../src/http/middleware/parse-around-long-strings.js';
import { TEXT_PIECE_BYTES, decodeInPieces } from '../src/http/middleware/pieced-text.js';
import { scanTopLevelValue } from '../src/http/middleware/top-level-value-range.js';

// A large body is decoded in pieces (issue #34, head-of-line: one 400 KB string costs its allocation in V8's
// large-object space): the pieces must read exactly as the body decoded whole.
const characters = ['a', 'é', '✓', '😀'];

/** About `bytes` bytes of text whose characters of 1 to 4 bytes fall across every piece boundary. */
function mixedText(bytes: number, shift: number): string {
  let text = 'x'.repeat(shift);
  for (let i = 0; Buffer.byteLength(text) < bytes; i++) text += characters[i % characters.length]!.repeat(1 + (i % 5));
  return text;
}

describe('decodeInPieces', () => {
  it('decodes as toString does, whatever character a piece boundary falls in', () => {
    for (let shift = 0; shift < 4; shift++) {
      const text = mixedText(3 * TEXT_PIECE_BYTES + 100, shift);
      const pieced = decodeInPieces(Buffer.from(text));
      expect(pieced.length).toBe(text.length);
      expect(pieced.toString()).toBe(text);
    }
    const ascii = 'lorem ipsum '.repeat(30_000);
    expect(decodeInPieces(Buffer.from(ascii)).toString()).toBe(ascii);
    expect(decodeInPieces(Buffer.alloc(0)).toString()).toBe('');
  });

  it('slices and reads characters as the whole string does, across pieces', () => {
    const text = mixedText(4 * TEXT_PIECE_BYTES, 1);
    const pieced = decodeInPieces(Buffer.from(text));
    const at = [0, 1, TEXT_PIECE_BYTES / 3, TEXT_PIECE_BYTES - 1, TEXT_PIECE_BYTES, 2 * TEXT_PIECE_BYTES + 7];
    for (const start of at) {
      expect(pieced.charCodeAt(start)).toBe(text.charCodeAt(start));
      for (const end of [...at, text.length - 1, text.length]) {
        expect(pieced.slice(start, end)).toBe(text.slice(start, end));
      }
      expect(pieced.slice(start)).toBe(text.slice(start));
    }
    expect(pieced.charCodeAt(text.length)).toBeNaN();
    expect(pieced.charCodeAt(-1)).toBeNaN();
  });

  it('finds a backslash or a control character in a range across pieces, and nothing outside it', () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
    const pattern = /[\x00-\x1f\\]/;
    for (const at of [0, TEXT_PIECE_BYTES - 1, TEXT_PIECE_BYTES, 2 * TEXT_PIECE_BYTES + 5]) {
      for (const bad of ['\\', '\n', '\u0000']) {
        const text = `${'a'.repeat(at)}${bad}${'b'.repeat(3 * TEXT_PIECE_BYTES)}`;
        const pieced = decodeInPieces(Buffer.from(text));
        expect(pieced.has(pattern, 0, text.length)).toBe(true);
        expect(pieced.has(pattern, Math.max(0, at - 100), at + 1)).toBe(true);
        expect(pieced.has(pattern, 0, at)).toBe(false);
        expect(pieced.has(pattern, at + 1, text.length)).toBe(false);
      }
    }
  });

  it('refuses a large ASCII body with a raw control character in a long string, wherever it lies', () => {
    for (const at of [10, TEXT_PIECE_BYTES + 3, 3 * TEXT_PIECE_BYTES - 40]) {
      const content = 'lorem ipsum '.repeat(12_000);
      const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] });
      const bytes = Buffer.from(body);
      bytes[body.indexOf('lorem') + at] = 0x0a;
      const { longStrings } = scanTopLevelValue(bytes, 'messages', 64);
      expect(longStrings).toHaveLength(1);
      expect(() => parseAroundLongStrings(decodeInPieces(bytes), bytes, longStrings, true)).toThrow(SyntaxError);
    }
  });

  it('gives parseAroundLongStrings what JSON.parse reads, without parsing the long strings', () => {
    const escaped = `${mixedText(2 * TEXT_PIECE_BYTES, 3)} with "escaped" quotes`;
    const body = JSON.stringify({
      model: 'm',
      messages: [
        { role: 'system', content: mixedText(TEXT_PIECE_BYTES + 10, 2) },
        { role: 'user', content: [{ type: 'text', text: 'lorem ipsum '.repeat(20_000) }] },
        { role: 'user', content: escaped },
      ],
      stream: true,
    });
    const bytes = Buffer.from(body);
    const { longStrings } = scanTopLevelValue(bytes, 'messages', 64);
    const spy = vi.spyOn(JSON, 'parse');
    try {
      const value = parseAroundLongStrings(decodeInPieces(bytes), bytes, longStrings, isAscii(bytes));
      const parsedLengths = spy.mock.calls.map(([parsed]) => parsed.length);
      expect(value).toEqual(JSON.parse(body));
      // The two raw long strings were put back from the pieces; only the escaped one went through JSON.parse.
      expect(Math.max(...parsedLengths)).toBeGreaterThan(escaped.length);
      expect(Math.max(...parsedLengths)).toBeLessThan(escaped.length + 1000);
    } finally {
      spy.mockRestore();
    }
  });
});
