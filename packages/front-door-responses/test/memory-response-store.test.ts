import { describe, expect, it, vi } from 'vitest';
import {
  listInputItems,
  MemoryResponseStore,
  newResponseObject,
  normalizeInputItems,
  type StoredResponse,
} from '../src/index.js';

const record = (id: string, expiresIn = 60_000, extra: Partial<StoredResponse> = {}): StoredResponse => ({
  id,
  owner: 'o',
  created_at: Date.now(),
  expires_at: Date.now() + expiresIn,
  response: newResponseObject(id, { model: 'm', input: 'x' }, 1, true),
  input_items: [],
  previous_response_id: null,
  ...extra,
});
/** A record whose input is one user message of `bytes` characters. */
const sized = (id: string, bytes: number, owner = 'o') =>
  record(id, 60_000, { owner, input_items: normalizeInputItems('x'.repeat(bytes)) });

describe('MemoryResponseStore', () => {
  it('keeps at most maxEntries records, dropping the oldest', async () => {
    const store = new MemoryResponseStore(2);
    for (const id of ['a', 'b', 'c']) await store.putResponse(record(id));
    expect(store.size).toBe(2);
    expect(await store.getResponse('a', 'o')).toBeUndefined();
    expect((await store.getResponse('c', 'o'))?.id).toBe('c');
  });

  it("keeps at most maxBytes bytes, dropping the oldest, and maxBytesPerOwner per owner, dropping that owner's oldest", async () => {
    const store = new MemoryResponseStore({ maxBytes: 40_000, maxBytesPerOwner: 25_000 });
    await store.putResponse(sized('a', 10_000, 'o'));
    await store.putResponse(sized('b', 10_000, 'p'));
    await store.putResponse(sized('c', 10_000, 'o'));
    expect(store.bytes).toBeLessThanOrEqual(40_000);
    await store.putResponse(sized('d', 10_000, 'o'));
    // Owner o holds c and d (a dropped for o's quota); p keeps b.
    expect(await store.getResponse('a', 'o')).toBeUndefined();
    expect((await store.getResponse('b', 'p'))?.id).toBe('b');
    expect((await store.getResponse('d', 'o'))?.id).toBe('d');
    await store.putResponse(sized('e', 10_000, 'q'));
    // 40,000 bytes in all: the oldest (b) goes.
    expect(await store.getResponse('b', 'p')).toBeUndefined();
    expect(store.bytes).toBeLessThanOrEqual(40_000);
    expect(await store.putResponse(sized('huge', 30_000, 'o'))).toBe(false);
    expect(await store.getResponse('huge', 'o')).toBeUndefined();
  });

  it('keeps the responses a record continues from as long as the record, and finds items by id for their owner', async () => {
    // The store's clock is Date.now(): frozen, so that 'first' is still alive when 'second' is stored however slow the
    // machine, then moved past 'first''s own expiry.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = new MemoryResponseStore();
      await store.putResponse(record('first', 50));
      await store.putResponse(
        record('second', 60_000, {
          previous_response_id: 'first',
          input_items: normalizeInputItems([{ id: 'msg_in', role: 'user', content: 'hi' }]),
        }),
      );
      vi.setSystemTime(Date.now() + 80);
      await checkContinuedRecord(store);
    } finally {
      vi.useRealTimers();
    }
  });

  async function checkContinuedRecord(store: MemoryResponseStore): Promise<void> {
    expect((await store.getResponse('first', 'o'))?.id).toBe('first');
    expect((await store.findResponseWithItem('msg_in', 'o'))?.id).toBe('second');
    expect(await store.findResponseWithItem('msg_in', 'someone-else')).toBeUndefined();
    expect(await store.findResponseWithItem('msg_none', 'o')).toBeUndefined();
    await store.deleteResponse('second', 'o');
    expect(await store.findResponseWithItem('msg_in', 'o')).toBeUndefined();
  }

  it('hides expired records and other owners', async () => {
    const store = new MemoryResponseStore();
    await store.putResponse(record('old', -1));
    await store.putResponse(record('new'));
    expect(await store.getResponse('old', 'o')).toBeUndefined();
    expect(await store.getResponse('new', 'someone-else')).toBeUndefined();
    expect(await store.deleteResponse('new', 'someone-else')).toBe(false);
    expect(await store.deleteResponse('new', 'o')).toBe(true);
  });
});

describe('listInputItems', () => {
  it('pages newest first by default, with after and limit', () => {
    const items = normalizeInputItems([
      { role: 'user', content: '1' },
      { role: 'user', content: '2' },
      { role: 'user', content: '3' },
    ]);
    const first = listInputItems(items, { limit: '2' });
    expect(first.data.map((i) => i.id)).toEqual([items[2]!.id, items[1]!.id]);
    expect(first.has_more).toBe(true);
    const next = listInputItems(items, { limit: '2', after: first.last_id });
    expect(next).toMatchObject({ data: [{ id: items[0]!.id }], has_more: false });
    expect(() => listInputItems(items, { order: 'sideways' })).toThrow(expect.objectContaining({ param: 'order' }));
  });
});
