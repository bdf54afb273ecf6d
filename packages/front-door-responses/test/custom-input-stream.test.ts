import { describe, expect, it } from 'vitest';
import { CustomInputStream } from '../src/custom-input-stream.js';
import { customInputOf } from '../src/convert-tool-call-item.js';

/** Feeds `args` in pieces of `size` characters; returns the deltas (non-empty) and the rest `finish` gave. */
function run(args: string, size: number): { deltas: string[]; rest: string } {
  const stream = new CustomInputStream();
  const deltas: string[] = [];
  for (let i = 0; i < args.length; i += size) {
    const text = stream.push(args.slice(i, i + size));
    if (text) deltas.push(text);
  }
  return { deltas, rest: stream.finish(args) };
}

const PATCH = '*** Begin Patch\n*** Add File: a "quoted" \\ path/é😀.txt\n+line\ttab\n*** End Patch\n';

describe('CustomInputStream', () => {
  it('decodes the input string as the argument fragments arrive, for every split', () => {
    const args = JSON.stringify({ input: PATCH });
    for (let size = 1; size <= args.length; size++) {
      const { deltas, rest } = run(args, size);
      expect(deltas.join('') + rest, `pieces of ${size}`).toBe(PATCH);
      expect(rest, `pieces of ${size}`).toBe('');
      // Incremental: with small pieces, many deltas arrive before the arguments end.
      if (size <= 8) expect(deltas.length).toBeGreaterThan(5);
      // No delta carries half a surrogate pair.
      for (const delta of deltas) expect(delta).not.toMatch(/[\ud800-\udbff]$|^[\udc00-\udfff]/);
    }
  });

  it('decodes \\u escapes split across fragments, surrogate pairs included', () => {
    const args = '{ "input" : "a\\u00e9\\ud83d\\ude00b" }';
    for (let size = 1; size <= args.length; size++) {
      const { deltas, rest } = run(args, size);
      expect(deltas.join('') + rest).toBe('aé😀b');
    }
  });

  it('streams raw text (not a JSON object) as it is, leading whitespace kept', () => {
    const args = '  *** Begin Patch\n*** End Patch';
    const { deltas, rest } = run(args, 3);
    expect(deltas.join('') + rest).toBe(customInputOf(args));
    expect(deltas.length).toBeGreaterThan(3);
  });

  it('holds other objects back and gives the final input at the end', () => {
    const args = '{"other":1,"input":"x"}';
    const { deltas, rest } = run(args, 2);
    expect(deltas).toEqual([]);
    expect(rest).toBe(customInputOf(args));
  });

  it('keeps the done input exact when a duplicate key changes it', () => {
    const args = '{"input":"abc","input":"xyz"}';
    const { deltas, rest } = run(args, 4);
    expect(deltas.join('')).toBe('abc');
    expect(rest).toBe('');
    expect(customInputOf(args)).toBe('xyz');
  });
});
