import { describeResponseStore } from '@switchyard/testkit/account-store';
import { describe, expect, it } from 'vitest';
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

describeResponseStore('memory', {
  open: async (limits) => new MemoryResponseStore({ maxBytesPerOwner: limits?.maxBytesPerOwner }),
});

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
