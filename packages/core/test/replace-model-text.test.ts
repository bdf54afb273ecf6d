import { describe, expect, it } from 'vitest';
import { replaceModelText } from '../src/gateway/replace-model-text.js';

// The model text of a run of plain deltas, rewritten for a client that asked for another id (issue #34).
const upstream = Buffer.from('"model":"gpt-4.1-nano-2025-04-14"');
const event = (content: string, model = '"model":"gpt-4.1-nano-2025-04-14"') =>
  `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,${model},"choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}\n\n`;
const rewrite = (text: string, replacement: string) =>
  Buffer.from(replaceModelText(Buffer.from(text), upstream, Buffer.from(replacement))).toString();

describe('replaceModelText', () => {
  it("replaces the model text of every event of a run, whatever the events' lengths", () => {
    const run = ['Hello', ' wor', 'ld, and a much longer piece of text', '', 'é ✓'].map((c) => event(c)).join('');
    for (const replacement of ['"model":"x"', '"model":"a-model-id-far-longer-than-the-upstream-one-for-sure"'])
      expect(rewrite(run, replacement)).toBe(run.replaceAll(upstream.toString(), replacement));
  });

  it('finds the model text where it moves from one event to the next, and skips events without it', () => {
    const run = [
      event('a'),
      'data: {"choices":[],"model":"gpt-4.1-nano-2025-04-14"}\n\n',
      'data: {"choices":[]}\n\n',
      event('b'),
      event('c', '"model":"other"'),
      event('d'),
    ].join('');
    expect(rewrite(run, '"model":"m"')).toBe(run.replaceAll(upstream.toString(), '"model":"m"'));
  });

  it('leaves text that merely looks like the model text inside a string alone', () => {
    const run = event(`say "model":"gpt-4.1-nano-2025-04-14"`) + event('x');
    expect(rewrite(run, '"model":"m"')).toBe(
      `${event(`say "model":"gpt-4.1-nano-2025-04-14"`, '"model":"m"')}${event('x', '"model":"m"')}`,
    );
  });

  it('replaces every event of a run longer than any before it, and of a shorter run after it', () => {
    for (const count of [1000, 3]) {
      const run = Array.from({ length: count }, (_, i) => event(`token${i} `)).join('');
      expect(rewrite(run, '"model":"m"')).toBe(run.replaceAll(upstream.toString(), '"model":"m"'));
    }
  });

  it('returns the bytes themselves when no event names the model, and works on a view into a larger buffer', () => {
    const bytes = Buffer.from(event('a', '"model":"other"'));
    expect(replaceModelText(bytes, upstream, Buffer.from('"model":"m"'))).toBe(bytes);
    const whole = Buffer.from(`xxxx${event('a')}${event('b')}yyyy`);
    const view = whole.subarray(4, whole.length - 4);
    expect(Buffer.from(replaceModelText(view, upstream, Buffer.from('"model":"m"'))).toString()).toBe(
      event('a', '"model":"m"') + event('b', '"model":"m"'),
    );
  });
});
