import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventStreamWriter } from '../src/http/event-stream-writer.js';

/** The part of Express's Response the writer uses, recording what was sent (the clock is faked, so no socket). */
class RecordingResponse extends EventEmitter {
  statusCode = 0;
  headers: Record<string, string> = {};
  headersSent = false;
  destroyed = false;
  written: string[] = [];
  /** Writes between `<cork>` and `<uncork>` leave in one socket write. */
  socket = { cork: () => this.written.push('<cork>'), uncork: () => this.written.push('<uncork>') };
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  set(headers: Record<string, string>) {
    Object.assign(this.headers, headers);
    return this;
  }
  flushHeaders() {
    this.headersSent = true;
  }
  write(data: string | Uint8Array) {
    this.written.push(typeof data === 'string' ? data : `<${data.length} bytes>`);
    return true;
  }
  end(data?: string) {
    if (data) this.written.push(data);
    this.emit('close');
  }
}

const fake = () => new RecordingResponse();
const asResponse = (res: RecordingResponse) => res as unknown as Response;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('EventStreamWriter keep-alive', () => {
  it('sends a : keep-alive comment after 15 s without a write by default, and again every 15 s', () => {
    const res = fake();
    EventStreamWriter.of(asResponse(res)).open();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    vi.advanceTimersByTime(14_999);
    expect(res.written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(res.written).toEqual([': keep-alive\n\n']);
    vi.advanceTimersByTime(15_000);
    expect(res.written).toEqual([': keep-alive\n\n', ': keep-alive\n\n']);
    res.end();
  });

  it('uses the configured interval (server.stream_keepalive_ms)', () => {
    const res = fake();
    EventStreamWriter.of(asResponse(res), { keepAliveMs: 100 }).open();
    vi.advanceTimersByTime(100);
    expect(res.written).toEqual([': keep-alive\n\n']);
    res.end();
  });

  it('opens a stream whose first event is late after one interval, with its headers and a keep-alive, unless cancelled', () => {
    const late = fake();
    EventStreamWriter.of(asResponse(late)).openWhenIdle(() => late.set({ 'x-switchyard-provider': 'openai' }));
    vi.advanceTimersByTime(14_999);
    expect(late.headersSent).toBe(false);
    vi.advanceTimersByTime(1);
    expect(late.headersSent).toBe(true);
    expect(late.headers['x-switchyard-provider']).toBe('openai');
    expect(late.written).toEqual([': keep-alive\n\n']);
    late.end();

    const failed = fake();
    const writer = EventStreamWriter.of(asResponse(failed));
    writer.openWhenIdle(() => {});
    writer.cancel();
    vi.advanceTimersByTime(60_000);
    expect(failed.headersSent).toBe(false);
    expect(failed.written).toEqual([]);
  });
});

/** A source with `takeReady` (as core's `SSETextReader`) built from `methods`, each call's name pushed to `calls`. */
function readySource(
  calls: string[],
  methods: {
    next(): IteratorResult<string>;
    takeReady(): string | undefined;
    return?(): IteratorResult<string>;
  },
) {
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<IteratorResult<string>> {
      calls.push('next');
      return methods.next();
    },
    takeReady(): string | undefined {
      calls.push('take');
      return methods.takeReady();
    },
    ...(methods.return && {
      async return(): Promise<IteratorResult<string>> {
        calls.push('return');
        return methods.return!();
      },
    }),
  };
}

describe('EventStreamWriter.pipe', () => {
  it('writes the first event before it reads the next one, and the events ready together after it in one write', async () => {
    vi.useRealTimers();
    const res = fake();
    let writtenWhenSecondRead: string[] | undefined;
    async function* events() {
      yield 'data: 1\n\n';
      writtenWhenSecondRead = [...res.written];
      yield 'data: 2\n\n';
      yield 'data: 3\n\n';
    }
    await EventStreamWriter.of(asResponse(res)).pipe(events());
    // Uncorked at once: the first event leaves the socket before the source is read further.
    expect(writtenWhenSecondRead).toEqual(['data: 1\n\n', '<uncork>']);
    expect(res.written).toEqual(['data: 1\n\n', '<uncork>', 'data: 2\n\ndata: 3\n\n']);
  });

  it('writes a source that has much ready at once in pieces of about 64 KiB, counting text and bytes alike', async () => {
    vi.useRealTimers();
    const res = fake();
    const text = `data: ${'x'.repeat(40 * 1024)}\n\n`;
    async function* events() {
      yield 'data: first\n\n';
      yield text;
      yield Buffer.alloc(30 * 1024, 'y');
      yield text;
      yield Buffer.alloc(30 * 1024, 'y');
    }
    await EventStreamWriter.of(asResponse(res)).pipe(events());
    // The first event alone; then 40 KiB of text and 30 KiB of bytes reach the limit together, twice.
    const piece = ['<cork>', text, '<30720 bytes>', '<uncork>'];
    expect(res.written).toEqual(['data: first\n\n', '<uncork>', ...piece, ...piece]);
  });

  it('takes the pieces a source already holds (takeReady) without awaiting next(), in order, until it holds none', async () => {
    vi.useRealTimers();
    const res = fake();
    const reads = [
      ['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n'],
      ['data: 4\n\n', 'data: 5\n\n'],
    ];
    let held: string[] = [];
    const calls: string[] = [];
    const source = readySource(calls, {
      next() {
        if (held.length > 0) return { done: false, value: held.shift()! };
        const read = reads.shift();
        if (read === undefined) return { done: true, value: undefined };
        held = read.slice(1);
        return { done: false, value: read[0]! };
      },
      takeReady: () => held.shift(),
    });
    await EventStreamWriter.of(asResponse(res)).pipe(source);
    expect(calls).toEqual(['next', 'take', 'take', 'take', 'next', 'take', 'take', 'next']);
    expect(res.written).toEqual(['data: 1\n\n', '<uncork>', 'data: 2\n\ndata: 3\n\ndata: 4\n\ndata: 5\n\n']);
  });

  it('takes no ready piece once the client is gone, and closes the source', async () => {
    vi.useRealTimers();
    const res = fake();
    let held = ['data: 2\n\n', 'data: 3\n\n'];
    const calls: string[] = [];
    const source = readySource(calls, {
      next: () => ({ done: false, value: 'data: 1\n\n' }),
      takeReady() {
        res.destroyed = true;
        return held.shift();
      },
      return() {
        held = [];
        return { done: true, value: undefined };
      },
    });
    await EventStreamWriter.of(asResponse(res)).pipe(source);
    expect(calls).toEqual(['next', 'take', 'return']);
    expect(res.written).toEqual(['data: 1\n\n', '<uncork>']);
  });
});
