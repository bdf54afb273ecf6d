import { describe, expect, it } from 'vitest';
import { UPSTREAM_BODY_PIECE_BYTES, pacedUpstreamBody } from '../src/utils/paced-upstream-body.js';

/** Reads `body` to its end: its pieces, and how many turns of the event loop ran while each was awaited. */
async function read(body: AsyncIterable<Uint8Array>): Promise<{ pieces: Uint8Array[]; turns: number[] }> {
  const pieces: Uint8Array[] = [];
  const turns: number[] = [];
  let ticks = 0;
  let reading = true;
  const tick = () => {
    ticks++;
    if (reading) setImmediate(tick);
  };
  setImmediate(tick);
  for await (const piece of body) {
    pieces.push(piece);
    turns.push(ticks);
  }
  reading = false;
  return { pieces, turns };
}

describe('pacedUpstreamBody', () => {
  it('sends large parts in pieces of at most 64 KiB, each in a later turn of the loop, bytes unchanged', async () => {
    const head = Buffer.from('{"model":"m","messages":');
    const prompt = Buffer.alloc(3 * UPSTREAM_BODY_PIECE_BYTES + 100, 'a');
    const tail = Buffer.from('}');
    const body = pacedUpstreamBody([head, prompt, tail]);
    expect(Array.isArray(body)).toBe(false);
    const { pieces, turns } = await read(body as AsyncIterable<Uint8Array>);
    expect(pieces.map((p) => p.length)).toEqual([head.length, 65_536, 65_536, 65_536, 100, 1]);
    expect(Buffer.concat(pieces).equals(Buffer.concat([head, prompt, tail]))).toBe(true);
    // The prompt's pieces are views of its bytes, not copies.
    expect(pieces[1]!.buffer).toBe(prompt.buffer);
    for (let i = 1; i < turns.length; i++) expect(turns[i]).toBeGreaterThan(turns[i - 1]!);
  });

  it('can be read again from the start (a retry sends the whole body again)', async () => {
    const parts = [Buffer.alloc(UPSTREAM_BODY_PIECE_BYTES + 1, 'b'), Buffer.from('end')];
    const body = pacedUpstreamBody(parts) as AsyncIterable<Uint8Array>;
    const first = Buffer.concat((await read(body)).pieces);
    const second = Buffer.concat((await read(body)).pieces);
    expect(first.equals(Buffer.concat(parts))).toBe(true);
    expect(second.equals(first)).toBe(true);
  });

  it('returns any other body as it is: fewer bytes in parts, a string, bytes, nothing', () => {
    const small = [Buffer.from('{"a":'), Buffer.alloc(UPSTREAM_BODY_PIECE_BYTES - 10, 'c'), Buffer.from('}')];
    expect(pacedUpstreamBody(small)).toBe(small);
    const text = 'x'.repeat(2 * UPSTREAM_BODY_PIECE_BYTES);
    expect(pacedUpstreamBody(text)).toBe(text);
    const bytes = Buffer.alloc(2 * UPSTREAM_BODY_PIECE_BYTES);
    expect(pacedUpstreamBody(bytes)).toBe(bytes);
    expect(pacedUpstreamBody(undefined)).toBe(undefined);
  });
});
