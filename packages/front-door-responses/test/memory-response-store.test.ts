import { describe, expect, it } from 'vitest';
import { listInputItems, MemoryResponseStore, newResponseObject, normalizeInputItems, type StoredResponse } from '../src/index.js';

const record = (id: string, expiresIn = 60_000): StoredResponse => ({
  id,
  owner: 'o',
  created_at: Date.now(),
  expires_at: Date.now() + expiresIn,
  response: newResponseObject(id, { model: 'm', input: 'x' }, 1, true),
  input_items: [],
  history: [],
});

describe('MemoryResponseStore', () => {
  it('keeps at most maxEntries records, dropping the oldest', async () => {
    const store = new MemoryResponseStore(2);
    for (const id of ['a', 'b', 'c']) await store.putResponse(record(id));
    expect(store.size).toBe(2);
    expect(await store.getResponse('a', 'o')).toBeUndefined();
    expect((await store.getResponse('c', 'o'))?.id).toBe('c');
  });

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
