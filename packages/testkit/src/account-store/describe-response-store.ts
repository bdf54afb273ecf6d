import type { ResponseStore } from '@switchyard/accounts';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A response store under test, closed by the suite after each case when it has `close`. */
export type ClosableResponseStore = ResponseStore & { close?: () => Promise<void> };

/**
 * How the shared suite gets stores of one implementation: `open(limits)` gives an empty store enforcing
 * `maxBytesPerOwner` (bytes of the records' JSON) when given, the store's default otherwise.
 */
export interface ResponseStoreFactory {
  open(limits?: { maxBytesPerOwner?: number }): Promise<ClosableResponseStore>;
}

/**
 * A record of `owner` that expires in `expiresIn` ms: one input message `msg_<id>` of `bytes` characters (plus an
 * `item_reference` to `ref_<id>`, which a store must not index) and one output message `out_<id>`.
 */
function record(id: string, owner: string, options: { expiresIn?: number; bytes?: number; previous?: string } = {}) {
  const now = Date.now();
  const text = 'x'.repeat(options.bytes ?? 2);
  return {
    id,
    owner,
    created_at: now,
    expires_at: now + (options.expiresIn ?? 60_000),
    response: { id, object: 'response', output: [{ id: `out_${id}`, type: 'message', role: 'assistant' }] },
    input_items: [
      { id: `msg_${id}`, type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
      { id: `ref_${id}`, type: 'item_reference' },
    ],
    previous_response_id: options.previous ?? null,
  };
}

/**
 * The behaviour every {@link ResponseStore} must have, as one vitest suite: records are seen and deleted by their
 * owner only, expired ones are never returned, an owner keeps at most `maxBytesPerOwner` bytes (its oldest records
 * dropped first, a record larger than that refused), items are found by id among input and output items (not
 * references) of the owner's live records, and a record keeps the responses it continues from alive as long as itself.
 * Run it from each store's tests: `describeResponseStore('SQLite', { open: async (limits) => ... })`.
 */
export function describeResponseStore(name: string, factory: ResponseStoreFactory): void {
  describe(`${name} ResponseStore behaviour`, () => {
    const opened: ClosableResponseStore[] = [];
    const open = async (limits?: { maxBytesPerOwner?: number }) => {
      const store = await factory.open(limits);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      vi.useRealTimers();
      await Promise.all(opened.splice(0).map((store) => store.close?.()));
    });

    it('returns and deletes a record for its owner only', async () => {
      const store = await open();
      const kept = record('resp_a', 'owner-1');
      expect(await store.putResponse(kept)).toBe(true);
      expect(await store.getResponse('resp_a', 'owner-1')).toEqual(kept);
      expect(await store.getResponse('resp_a', 'owner-2')).toBeUndefined();
      expect(await store.deleteResponse('resp_a', 'owner-2')).toBe(false);
      expect(await store.deleteResponse('resp_a', 'owner-1')).toBe(true);
      expect(await store.getResponse('resp_a', 'owner-1')).toBeUndefined();
      expect(await store.deleteResponse('resp_a', 'owner-1')).toBe(false);
    });

    it('never returns an expired record, by id or by item', async () => {
      const store = await open();
      await store.putResponse(record('resp_old', 'o', { expiresIn: -1 }));
      await store.putResponse(record('resp_new', 'o'));
      expect(await store.getResponse('resp_old', 'o')).toBeUndefined();
      expect(await store.findResponseWithItem('msg_resp_old', 'o')).toBeUndefined();
      expect((await store.getResponse('resp_new', 'o'))?.id).toBe('resp_new');
    });

    it("keeps at most maxBytesPerOwner bytes per owner, dropping that owner's oldest, and refuses a larger record", async () => {
      const store = await open({ maxBytesPerOwner: 25_000 });
      expect(store.limits.maxBytesPerOwner).toBe(25_000);
      await store.putResponse(record('a', 'o', { bytes: 10_000 }));
      await store.putResponse(record('b', 'p', { bytes: 10_000 }));
      await store.putResponse(record('c', 'o', { bytes: 10_000 }));
      await store.putResponse(record('d', 'o', { bytes: 10_000 }));
      expect(await store.getResponse('a', 'o')).toBeUndefined();
      expect(await store.findResponseWithItem('msg_a', 'o')).toBeUndefined();
      expect((await store.getResponse('c', 'o'))?.id).toBe('c');
      expect((await store.getResponse('d', 'o'))?.id).toBe('d');
      expect((await store.getResponse('b', 'p'))?.id).toBe('b');
      expect(await store.putResponse(record('huge', 'o', { bytes: 30_000 }))).toBe(false);
      expect(await store.getResponse('huge', 'o')).toBeUndefined();
      expect((await store.getResponse('d', 'o'))?.id).toBe('d');
    });

    it("finds input and output items by id among the owner's records, never an item_reference", async () => {
      const store = await open();
      await store.putResponse(record('one', 'o'));
      expect((await store.findResponseWithItem('msg_one', 'o'))?.id).toBe('one');
      expect((await store.findResponseWithItem('out_one', 'o'))?.id).toBe('one');
      expect(await store.findResponseWithItem('ref_one', 'o')).toBeUndefined();
      expect(await store.findResponseWithItem('msg_one', 'p')).toBeUndefined();
      expect(await store.findResponseWithItem('msg_none', 'o')).toBeUndefined();
      await store.deleteResponse('one', 'o');
      expect(await store.findResponseWithItem('msg_one', 'o')).toBeUndefined();
    });

    it('keeps the responses a record continues from at least as long as the record', async () => {
      // Frozen, so that 'first' is still alive when 'second' is stored however slow the machine.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      const store = await open();
      await store.putResponse(record('first', 'o', { expiresIn: 50 }));
      await store.putResponse(record('unlinked', 'o', { expiresIn: 50 }));
      await store.putResponse(record('second', 'o', { previous: 'first' }));
      vi.setSystemTime(Date.now() + 80);
      expect((await store.getResponse('first', 'o'))?.id).toBe('first');
      expect(await store.getResponse('unlinked', 'o')).toBeUndefined();
      expect((await store.getResponse('second', 'o'))?.previous_response_id).toBe('first');
    });
  });
}
