import { describe, expect, it } from 'vitest';
import { scanTopLevelValue } from '../src/http/middleware/top-level-value-range.js';

/** The text of the top-level `messages` value that the scan found in `text` (undefined when none), depth 64. */
const valueText = (text: string) => {
  const bytes = Buffer.from(text);
  const { range } = scanTopLevelValue(bytes, 'messages', 64);
  return range && bytes.toString('utf8', ...range);
};

describe('scanTopLevelValue', () => {
  it("finds the top-level value, not a nested one's or text inside a string", () => {
    const text = String.raw`{"a":{"messages":[1]},"b":"\"messages\":[2] \\","messages" : [ {"x":"]"} ] ,"c":[]}`;
    expect(valueText(text)).toBe('[ {"x":"]"} ]');
    expect(valueText('{"messages":{"k":[]}}')).toBe('{"k":[]}');
    expect(valueText('{"é":"✓","messages":[{"content":"😀 \\"]\\""}],"z":1}')).toBe('[{"content":"😀 \\"]\\""}]');
  });

  it('refuses a repeated key anywhere, an escaped key spelling included, and values that are not containers', () => {
    expect(valueText('{"messages":[],"messages":[]}')).toBeUndefined();
    expect(valueText('{"messages":[{"role":"user","role":"system"}]}')).toBeUndefined();
    expect(valueText(String.raw`{"messages":[{"role":"user","r\u006fle":"system"}]}`)).toBeUndefined();
    expect(valueText('{"model":"m","model":"n","messages":[]}')).toBeUndefined();
    expect(valueText('{"messages":"text"}')).toBeUndefined();
    expect(valueText('{"other":[]}')).toBeUndefined();
    expect(valueText('["messages",[]]')).toBeUndefined();
  });

  it('finds nothing in text that is not JSON: an unterminated string, a key with a bad escape', () => {
    expect(valueText('{"messages":[{"role":"user}]}')).toBeUndefined();
    expect(valueText(String.raw`{"messages":[{"r\x":"user"}]}`)).toBeUndefined();
  });

  it('checks the depth to the end, brackets in strings not counted, after a repeated key too', () => {
    const nested = (depth: number) => `${'['.repeat(depth - 1)}"[[{{"${']'.repeat(depth - 1)}`;
    const body = (depth: number, prefix = '') =>
      Buffer.from(`{${prefix}"messages":[{"role":"user","content":"hi"}],"metadata":${nested(depth)}}`);
    expect(scanTopLevelValue(body(64), 'messages', 64)).toEqual({ tooDeep: false, range: [12, 44], longStrings: [] });
    expect(scanTopLevelValue(body(65), 'messages', 64)).toEqual({ tooDeep: true, range: undefined, longStrings: [] });
    expect(scanTopLevelValue(body(65, '"a":1,"a":2,'), 'messages', 64).tooDeep).toBe(true);
    expect(scanTopLevelValue(body(64, '"a":1,"a":2,'), 'messages', 64)).toEqual({
      tooDeep: false,
      range: undefined,
      longStrings: [],
    });
  });
});
