import type { ChatCompletionChunk } from '@switchyard/core';
import { testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { ChunkTemplate } from '../src/chunk-template.js';
import { PlainRun } from '../src/plain-run.js';

// The recorded OpenAI stream: a role chunk, text deltas (some with escapes), a finish chunk, a usage chunk.
const lines = testkitFixtures().chunkLines('openai/openai-text.chunks.txt');
const parsed = (line: string) => JSON.parse(line) as ChatCompletionChunk;
const learned = (line: string) => {
  const template = new ChunkTemplate();
  template.learn(parsed(line), line);
  return template;
};
const withContent = (line: string, literal: string) =>
  line.replace(/"content":"(?:[^"\\]|\\.)*"/, `"content":"${literal}"`);

describe('ChunkTemplate', () => {
  it('matches every recorded text delta after the first one, with its content decoded, whatever its obfuscation padding', () => {
    const template = learned(lines[1]!);
    for (const line of lines.slice(1, -2)) expect(template.match(line)).toBe(parsed(line).choices[0]!.delta!.content);
    expect(lines.slice(1, -2).some((line) => line.includes('\\n'))).toBe(true);
  });

  it('matches nothing until it learned a plain text delta: not from a role chunk, a finish chunk or a usage chunk', () => {
    for (const line of [lines[0]!, lines.at(-2)!, lines.at(-1)!])
      expect(learned(line).match(lines[2]!)).toBeUndefined();
  });

  it('does not match a finish chunk, a usage chunk, a role chunk or a chunk of another id', () => {
    const template = learned(lines[1]!);
    for (const line of [lines[0]!, lines.at(-2)!, lines.at(-1)!, lines[2]!.replace('chatcmpl-', 'chatcmpl-X')])
      expect(template.match(line)).toBeUndefined();
  });

  it('does not match text that is not valid JSON: bad escapes, raw control characters, quotes, a cut or extended tail', () => {
    const template = learned(lines[1]!);
    expect(template.match(withContent(lines[2]!, 'fine \\" \\u00e9'))).toBe('fine " é');
    for (const literal of ['bad \\q', 'raw \u0001', 'trailing \\', 'unicode \\u12'])
      expect(template.match(withContent(lines[2]!, literal))).toBeUndefined();
    expect(template.match(lines[2]!.slice(0, -1))).toBeUndefined();
    expect(template.match(`${lines[2]!.slice(0, -2)}x"}`)).toBe(parsed(lines[2]!).choices[0]!.delta!.content);
    expect(template.match(`${lines[2]!.slice(0, -2)}"x"}`)).toBeUndefined();
    expect(template.match(`${lines[2]!}}`)).toBeUndefined();
    expect(template.match(lines[2]!.replace('"logprobs":null', '"logprobs":{}'))).toBeUndefined();
  });

  it('matches the same events on their bytes as on their text, in a read among other events', () => {
    const template = learned(lines[1]!);
    const padding = lines[2]!.lastIndexOf('"obfuscation":"') + '"obfuscation":"'.length;
    const candidates = [
      ...lines,
      withContent(lines[2]!, 'fine \\" \\u00e9'),
      withContent(lines[2]!, 'caf\u00e9 \u{1F600}'),
      ...['bad \\q', 'raw \u0001', 'trailing \\', 'unicode \\u12'].map((literal) => withContent(lines[2]!, literal)),
      lines[2]!.slice(0, -1),
      `${lines[2]!.slice(0, -2)}x"}`,
      `${lines[2]!.slice(0, -2)}"x"}`,
      `${lines[2]!}}`,
      `${lines[2]!.slice(0, padding)}}`,
      lines[2]!.replace('"logprobs":null', '"logprobs":{}'),
    ];
    const read = Buffer.from(`data: {"other":1}\n\n${candidates.map((line) => `data: ${line}\n\n`).join('')}`);
    // The byte offset just past each event, as core's splitter gives them for a plain read.
    const ends: number[] = [];
    for (let at = read.indexOf('\n\n'); at !== -1; at = read.indexOf('\n\n', at + 2)) ends.push(at + 2);
    let matched = 0;
    for (const [i, line] of candidates.entries()) {
      const event = i + 1;
      const found = template.matchBytes(read, ends[event - 1]! + 'data: '.length, ends[event]! - 2);
      expect(found).toBe(template.match(line) !== undefined);
      if (found) {
        // What the run gives for the delta is what the parsed path reads from its text.
        const run = new PlainRun(read, ends, event, template.prefixBytes);
        expect(run.textAt(0)).toBe(line);
        expect(run.contentAt(0)).toBe(template.match(line));
        expect(run.contentAt(0)).toBe(parsed(line).choices[0]!.delta!.content);
        expect(read.subarray(run.start, run.end).toString()).toBe(`data: ${line}\n\n`);
        matched++;
      }
    }
    expect(matched).toBeGreaterThan(lines.length - 4);
    expect(template.match(`${lines[2]!.slice(0, padding)}}`)).toBeUndefined();
  });
});
