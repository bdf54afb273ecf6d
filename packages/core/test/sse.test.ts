import { once } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type ChatCompletionChunk,
  encodeSSEData,
  GatewayError,
  parseSSEBatches,
  parseSSEStream,
  SSE_DONE,
  StrayStreamTextError,
  toSSEStream,
} from '../src/index.js';

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

const chunk = (content: string): ChatCompletionChunk => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

describe('parseSSEBatches', () => {
  it('yields the events of each read together, in order, then throws stray text after the events before it', async () => {
    const seen: string[][] = [];
    const body = bytes(
      'data: {"a":1}\n\ndata: {"b":2}\n\ndata: {"c"',
      ':3}\n\n',
      'data: {"d":4}\n\n{\n  "error": {}\n}\n',
    );
    const error = await (async () => {
      for await (const { events } of parseSSEBatches(body)) seen.push(events.map((e) => e.data));
    })().catch((e: unknown) => e);
    expect(seen).toEqual([['{"a":1}', '{"b":2}'], ['{"c":3}'], ['{"d":4}']]);
    expect(StrayStreamTextError.isInstance(error)).toBe(true);
  });

  it('decodes a character split between two reads and strips one leading BOM', async () => {
    const encoded = new TextEncoder().encode('\uFEFFdata: {"t":"h\u00e9llo \u{1F600}"}\n\n');
    async function* split(): AsyncGenerator<Uint8Array> {
      // Inside the BOM, inside the two-byte é and inside the four-byte emoji.
      yield encoded.subarray(0, 2);
      yield encoded.subarray(2, 17);
      yield encoded.subarray(17, 25);
      yield encoded.subarray(25);
    }
    const seen: string[] = [];
    for await (const { events } of parseSSEBatches(split())) seen.push(...events.map((e) => e.data));
    expect(seen).toEqual(['{"t":"h\u00e9llo \u{1F600}"}']);
  });

  it('with drainOnReturn, reads a Node stream to its end instead of destroying it when the consumer stops early', async () => {
    const make = () => Readable.from(['data: 1\n\n', 'data: [DONE]\n\n', ': trailing\n\n'], { objectMode: false });
    const drained = make();
    for await (const { events } of parseSSEBatches(drained, { drainOnReturn: true }))
      if (events.some((e) => e.data === '[DONE]')) break;
    await once(drained, 'end');
    expect(drained.readableEnded).toBe(true);
    // Without it, stopping early destroys the unfinished stream.
    const destroyed = make();
    const errors: unknown[] = [];
    destroyed.on('error', (e) => errors.push(e));
    for await (const { events } of parseSSEBatches(destroyed)) if (events.some((e) => e.data === '[DONE]')) break;
    expect(destroyed.destroyed).toBe(true);
    expect(destroyed.readableEnded).toBe(false);
  });
});

describe('parseSSEBatches: plain reads', () => {
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it('gives a plain read its own bytes and the offset past each event, and the same events as the parser', async () => {
    const reads = ['data: {"a":1}\n\ndata: {"b":"x y"}\n\n', 'data: \n\ndata: [DONE]\n\n'];
    const batches = await collect(parseSSEBatches(bytes(...reads)));
    expect(batches.map((b) => b.events.map((e) => e.data))).toEqual([
      ['{"a":1}', '{"b":"x y"}'],
      ['', '[DONE]'],
    ]);
    expect(batches.map((b) => decode(b.bytes!))).toEqual(reads);
    expect(batches.map((b) => b.ends)).toEqual([
      [15, 34],
      [8, 22],
    ]);
    expect(decode(batches[0]!.bytes!.subarray(batches[0]!.ends![0], batches[0]!.ends![1]))).toBe(
      'data: {"b":"x y"}\n\n',
    );
    // The events are the ones eventsource-parser gives for the same text.
    const parsed = await collect(parseSSEStream(bytes('\r\n', ...reads)));
    expect(batches.flatMap((b) => b.events)).toEqual(parsed);
  });

  it('gives no bytes for reads that are not plain, and none after a read that ended inside an event', async () => {
    const reads = [
      'data: {"a":1}\n\ndata: {"b"', // ends inside an event
      ':2}\n\n', // completes it: not plain
      'data: {"c":"\u00e9"}\n\n', // after a read that was not plain
      'data: {"f":6}\r\n\r\n', // CRLF
      'event: ping\ndata: {}\n\n', // another field
      'data:{"d":4}\n\n', // no space after the colon
      ': comment\n\ndata: {"e":5}\n\n', // a comment
      'data: {"g":7}\n\n', // plain again
    ];
    const batches = await collect(parseSSEBatches(bytes(...reads)));
    expect(batches.map((b) => b.events.map((e) => e.data))).toEqual([
      ['{"a":1}'],
      ['{"b":2}'],
      ['{"c":"\u00e9"}'],
      ['{"f":6}'],
      ['{}'],
      ['{"d":4}'],
      ['{"e":5}'],
      ['{"g":7}'],
    ]);
    expect(batches.map((b) => b.bytes !== undefined)).toEqual([false, false, true, false, false, false, false, true]);
  });

  it('with plainAsBytes, gives a plain read undecoded (no events, its bytes and offsets) and decodes the others', async () => {
    const reads = [
      'data: {"a":1}\n\ndata: {"t":"\u00e9 \u{1F600}"}\n\n', // plain, beyond ASCII
      'data: {"b"', // ends inside an event
      ':2}\n\n', // completes it: not plain
      'data: {"c":3}\n\n', // plain again
    ];
    const batches = await collect(parseSSEBatches(bytes(...reads), { plainAsBytes: true }));
    expect(batches.map((b) => b.events.map((e) => e.data))).toEqual([[], ['{"b":2}'], []]);
    expect(batches.map((b) => b.ends)).toEqual([[15, 15 + 23], undefined, [15]]);
    expect(decode(batches[0]!.bytes!.subarray(15, 38))).toBe('data: {"t":"\u00e9 \u{1F600}"}\n\n');
    expect(decode(batches[2]!.bytes!)).toBe(reads[3]);
  });

  it('gives the byte offsets of a read beyond ASCII, and no bytes for a read that is not valid UTF-8', async () => {
    const read = 'data: {"t":"\u00e9"}\n\ndata: {"t":"\u{1F600} \u4f60"}\n\n';
    const [batch] = await collect(parseSSEBatches(bytes(read)));
    expect(batch!.events.map((e) => e.data)).toEqual(['{"t":"\u00e9"}', '{"t":"\u{1F600} \u4f60"}']);
    expect(batch!.ends).toEqual([18, 18 + 24]);
    expect(decode(batch!.bytes!.subarray(18, 42))).toBe('data: {"t":"\u{1F600} \u4f60"}\n\n');
    async function* invalid(): AsyncGenerator<Uint8Array> {
      yield Uint8Array.from([...new TextEncoder().encode('data: {"t":"'), 0xff, ...new TextEncoder().encode('"}\n\n')]);
    }
    const [bad] = await collect(parseSSEBatches(invalid()));
    expect(bad!.events.map((e) => e.data)).toEqual(['{"t":"\uFFFD"}']);
    expect(bad!.bytes).toBeUndefined();
  });

  it('still strips a leading BOM and still throws stray text after a plain read', async () => {
    const bom = await collect(parseSSEBatches(bytes('\uFEFFdata: 1\n\n', 'data: 2\n\n')));
    expect(bom.map((b) => b.events.map((e) => e.data))).toEqual([['1'], ['2']]);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const { events } of parseSSEBatches(bytes('data: 1\n\n', '{"error":{}}\n', 'data: 2\n\n')))
        seen.push(...events.map((e) => e.data));
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['1']);
    expect(StrayStreamTextError.isInstance(error)).toBe(true);
  });
});

describe('parseSSEStream', () => {
  it('throws the text of a bare JSON body that follows the events (Gemini mid-stream error shape), after the events', async () => {
    const seen: string[] = [];
    const body = bytes(
      'data: {"a":1}\r\n\r\n',
      'data: {"b":2}\r\n\r\n{\n  "error": {\n    "code": 499,\n    "status": "CANCELLED"\n  }\n}\n',
    );
    const error = await (async () => {
      for await (const event of parseSSEStream(body)) seen.push(event.data);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['{"a":1}', '{"b":2}']);
    expect(StrayStreamTextError.isInstance(error)).toBe(true);
    expect(JSON.parse((error as StrayStreamTextError).text)).toEqual({ error: { code: 499, status: 'CANCELLED' } });
  });

  it('ignores unknown word-named fields, as the SSE spec says', async () => {
    const events = await collect(parseSSEStream(bytes('foo: bar\ndata: {"a":1}\n\n')));
    expect(events.map((e) => e.data)).toEqual(['{"a":1}']);
  });

  it('parses LF and CRLF framing split across network chunks, with event names and comments', async () => {
    const events = await collect(
      parseSSEStream(bytes('data: {"a"', ':1}\n\n: keep-alive\n\nevent: ping\r\ndata: {}\r\n\r\n', 'data: [DONE]\n\n')),
    );
    expect(events.map((e) => [e.event, e.data])).toEqual([
      [undefined, '{"a":1}'],
      ['ping', '{}'],
      [undefined, '[DONE]'],
    ]);
  });

  it('delivers a last event that has no blank line after it', async () => {
    const events = await collect(parseSSEStream(bytes('data: {"a":1}\r\n\r\ndata: {"b":2}\r\n')));
    expect(events.map((e) => e.data)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('yields an event before the stream ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow() {
      yield new TextEncoder().encode('data: first\n\n');
      await gate;
    }
    const iterator = parseSSEStream(slow());
    expect((await iterator.next()).value?.data).toBe('first');
    release();
    expect((await iterator.next()).done).toBe(true);
  });
});

describe('toSSEStream', () => {
  it('writes one data event per chunk, then [DONE]', async () => {
    async function* chunks() {
      yield chunk('a');
      yield chunk('b');
    }
    expect(await collect(toSSEStream(chunks()))).toEqual([
      encodeSSEData(chunk('a')),
      encodeSSEData(chunk('b')),
      SSE_DONE,
    ]);
  });

  it('ends a failed stream with one OpenAI-shaped error event and no [DONE]', async () => {
    async function* chunks() {
      yield chunk('a');
      throw new GatewayError({ status: 529, type: 'overloaded_error', message: 'Overloaded' });
    }
    const seen: unknown[] = [];
    const events = await collect(toSSEStream(chunks(), (e) => seen.push(e)));
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[1]!.slice(6))).toEqual({
      error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null },
    });
    expect(seen).toHaveLength(1);
  });

  it('hides the details of unexpected failures', async () => {
    const chunks: AsyncIterable<ChatCompletionChunk> = {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('secret internal detail')) }),
    };
    const [event] = await collect(toSSEStream(chunks));
    expect(event).not.toContain('secret');
    expect(JSON.parse(event!.slice(6)).error.type).toBe('server_error');
  });
});
