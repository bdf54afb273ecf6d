import { describe, expect, it } from 'vitest';
import { topLevelValueRange } from '../src/http/middleware/top-level-value-range.js';

const valueText = (text: string) => {
  const range = topLevelValueRange(text, 'messages');
  return range && text.slice(...range);
};

describe('topLevelValueRange', () => {
  it("finds the top-level value, not a nested one's or text inside a string", () => {
    const text = String.raw`{"a":{"messages":[1]},"b":"\"messages\":[2] \\","messages" : [ {"x":"]"} ] ,"c":[]}`;
    expect(valueText(text)).toBe('[ {"x":"]"} ]');
    expect(valueText('{"messages":{"k":[]}}')).toBe('{"k":[]}');
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
});
