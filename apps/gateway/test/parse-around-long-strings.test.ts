import { isAscii } from 'node:buffer';
import { describe, expect, it, vi } from 'vitest';
import { parseAroundLongStrings } from '../src/http/middleware/parse-around-long-strings.js';
import { LONG_STRING_BYTES, scanTopLevelValue } from '../src/http/middleware/top-level-value-range.js';

// A large ASCII body's long strings are taken from its text unparsed (issue #34, head-of-line): what the gateway reads
// must be what JSON.parse reads, and text that is not JSON must still be refused.
const long = (seed: string) => `${seed} `.repeat(Math.ceil(LONG_STRING_BYTES / (seed.length + 1)) + 3);

/**
 * The scan's long strings of `bytes` (by default `text` encoded), `text` parsed around them, and the length of the
 * longest text that parse handed to `JSON.parse` (short when the long strings were taken from the text unparsed).
 */
function parse(text: string, bytes = Buffer.from(text)) {
  const { longStrings } = scanTopLevelValue(bytes, 'messages', 64);
  const value = () => parseAroundLongStrings(text, bytes, longStrings, isAscii(bytes));
  const longestParsed = () => {
    const spy = vi.spyOn(JSON, 'parse');
    try {
      value();
      return Math.max(...spy.mock.calls.map(([parsed]) => parsed.length));
    } finally {
      spy.mockRestore();
    }
  };
  return { longStrings, value, longestParsed };
}

describe('parseAroundLongStrings', () => {
  it('reads what JSON.parse reads: strings in messages, content parts, nested arrays, keys that are numbers', () => {
    const text = JSON.stringify({
      model: 'm',
      messages: [
        { role: 'system', content: long('be brief') },
        {
          role: 'user',
          content: [
            { type: 'text', text: long('part one') },
            { type: 'text', text: 'short' },
          ],
        },
        { role: 'user', content: long("third with [brackets] and {braces} and 'quotes'") },
      ],
      metadata: { 0: long('numbered key'), list: [[1, long('deep')], 'x', long('last')] },
      stream: true,
    });
    const { longStrings, value, longestParsed } = parse(` ${text.replace(/,/g, ' ,\n ')} `);
    expect(longestParsed()).toBeLessThan(1000);
    expect(longStrings.map((s) => s.path)).toEqual([
      ['messages', 0, 'content'],
      ['messages', 1, 'content', 0, 'text'],
      ['messages', 2, 'content'],
      ['metadata', '0'],
      ['metadata', 'list', 0, 1],
      ['metadata', 'list', 2],
    ]);
    expect(value()).toEqual(JSON.parse(text));
  });

  it('parses strings with escapes or control characters as JSON.parse does, and refuses what it refuses', () => {
    const json = JSON.stringify({ messages: [{ content: `${long('a')}\n"q" \\ \u00e9` }, { content: long('b') }] });
    const escaped = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(escaped).toContain('\\u00e9');
    expect(parse(escaped).value()).toEqual(JSON.parse(escaped));
    const raw = `{"messages":[{"content":"${long('a')}\u0001"}]}`;
    expect(parse(raw).longStrings).toHaveLength(1);
    expect(() => parse(raw).value()).toThrow(SyntaxError);
    const tab = `{"messages":[{"content":"${long('a')}\t"}]}`;
    expect(() => parse(tab).value()).toThrow(SyntaxError);
  });

  it('refuses text that is not JSON around long strings', () => {
    for (const text of [
      `{"messages":[{"content":"${long('a')}"}]`,
      `{"messages":[{"content" "${long('a')}"}]}`,
      `{"messages":["${long('a')}" "${long('b')}"]}`,
      `{"messages":["${long('a')}",]}`,
      `{"${long('a')}"}`,
      `{"messages":[tru"${long('a')}"]}`,
    ]) {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => parse(text).value()).toThrow(SyntaxError);
    }
  });

  it('reads a non-ASCII body as JSON.parse does: 2-, 3- and 4-byte characters before, in and after long strings', () => {
    const text = JSON.stringify({
      metadata: { note: 'ü ✓ 😀', 'clé ✓': long('é ✓ 😀 🧪') },
      messages: [
        { role: 'user', content: long('naïve café ✓ 😀') },
        {
          role: 'user',
          content: [
            { type: 'text', text: `${long('ascii only')} then 😀` },
            { type: 'text', text: 'ß' },
          ],
        },
        { role: 'user', content: long('plain ascii') },
      ],
      user: '😀 ü',
    });
    const { longStrings, value, longestParsed } = parse(text);
    expect(longStrings).toHaveLength(4);
    expect(longestParsed()).toBeLessThan(1000);
    expect(value()).toEqual(JSON.parse(text));
  });

  it('parses a body that is not valid UTF-8 whole, as JSON.parse reads its decoded text', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"messages":[{"content":"'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from(`${long('a')}"},{"content":"${long('b')}"}]}`),
    ]);
    const text = bytes.toString('utf8');
    const { longStrings, value, longestParsed } = parse(text, bytes);
    expect(longStrings).toHaveLength(2);
    expect(longestParsed()).toBe(text.length);
    expect(value()).toEqual(JSON.parse(text));
  });

  it('lists nothing when a key repeats, and leaves a __proto__ key to the parse', () => {
    const repeated = `{"messages":[{"content":"x","content":"${long('a')}"}]}`;
    expect(parse(repeated).longStrings).toEqual([]);
    const proto = `{"messages":[{"__proto__":"${long('a')}","content":"${long('b')}"}]}`;
    const parsed = parse(proto).value() as { messages: Record<string, unknown>[] };
    expect(parsed).toEqual(JSON.parse(proto));
    expect(Object.hasOwn(parsed.messages[0]!, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(parsed.messages[0])).toBe(Object.prototype);
  });

  it('lists no string shorter than LONG_STRING_BYTES, nor a top-level one', () => {
    const short = 'x'.repeat(LONG_STRING_BYTES - 1);
    expect(parse(JSON.stringify({ messages: [{ content: short }] })).longStrings).toEqual([]);
    expect(parse(JSON.stringify(`${short}x`)).longStrings).toEqual([]);
    expect(parse(JSON.stringify({ messages: [{ content: `${short}x` }] })).longStrings).toHaveLength(1);
  });
});
