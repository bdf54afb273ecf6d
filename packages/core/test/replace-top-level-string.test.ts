import { describe, expect, it } from 'vitest';
import { replaceTopLevelString } from '../src/utils/replace-top-level-string.js';

/** The bytes with the top-level `model` replaced, checked against what `JSON.parse` reads of them. */
const replaced = (text: string, model: string): string | undefined => {
  const out = replaceTopLevelString(Buffer.from(text), 'model', model);
  if (out === undefined) return undefined;
  expect(JSON.parse(out.toString('utf8'))).toEqual({ ...JSON.parse(text), model });
  return out.toString('utf8');
};

describe('replaceTopLevelString', () => {
  it('writes the new value over the old one and copies every other byte as it was', () => {
    const text = '{"id":"c1","model":"gpt-5-2025","choices":[]}';
    expect(replaced(text, 'sneaky')).toBe('{"id":"c1","model":"sneaky","choices":[]}');
  });

  it('skips nested keys, string values and escaped quotes that look like the key', () => {
    const text =
      '{ "id" : "say \\"model\\": \\\\", "choices": [{"model": "inner", "message": {"content": "\\"model\\":\\"x\\""}}],' +
      '\n\t"model" :\r "up\\u0073tream ✓", "tail": {"model": ["model"]} }';
    expect(replaced(text, 'café "ü" 😀')).toBe(text.replace('"up\\u0073tream ✓"', JSON.stringify('café "ü" 😀')));
  });

  it('refuses what it cannot replace exactly', () => {
    // A repeated key (JSON.parse keeps the last), an escaped spelling of it or of any top-level key, a value that is
    // not a string, no such key at the top level, and a body that is not an object.
    for (const text of [
      '{"model":"a","x":1,"model":"b"}',
      '{"mod\\u0065l":"a","model":"b"}',
      '{"a\\"b":1,"model":"b"}',
      '{"model":null}',
      '{"model":{"model":"a"}}',
      '{"choices":[{"model":"a"}]}',
      '["model","a"]',
      '"model"',
    ])
      expect(replaced(text, 'm'), text).toBeUndefined();
  });

  it('keys with escapes below the top level do not stop it', () => {
    expect(replaced('{"x":{"a\\"b":1},"model":"b"}', 'm')).toBe('{"x":{"a\\"b":1},"model":"m"}');
  });
});
