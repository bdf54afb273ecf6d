import type { BatchLineResult, BatchStore, StoredBatch, StoredFile } from '@switchyard/accounts';
import { describe, expect, it } from 'vitest';

/** How the shared suite gets stores of one implementation: `open(name)` is empty the first time, and holds what was written when opened again. */
export interface BatchStoreFactory {
  open(name: string): Promise<BatchStore>;
}

let counter = 0;
const uniqueName = () => `b${process.pid}_${Date.now().toString(36)}_${counter++}`;

const file = (id: string, owner: string, created_at: number, purpose: StoredFile['purpose'] = 'batch'): StoredFile => ({
  id,
  owner,
  bytes: 1234,
  created_at,
  expires_at: null,
  filename: `${id}.jsonl`,
  purpose,
});

const batch = (id: string, owner: string, created_at: number): StoredBatch => ({
  id,
  owner,
  key_id: 'key_1',
  runner: 'gateway',
  upstream_id: null,
  status: 'in_progress',
  batch: { id, object: 'batch', status: 'in_progress', created_at, metadata: { run: 'nightly' } },
});

const ok = (n: number): BatchLineResult => ({
  failed: false,
  response: { status_code: 200, request_id: `req_${n}`, body: { n } },
});
const lines = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ index, custom_id: `c-${index}`, body: JSON.stringify({ n: index }) }));

/**
 * The behaviour every {@link BatchStore} must have, as one vitest suite: files round-trip, are seen only by their
 * owner and are listed by purpose in both orders with a cursor; batches round-trip and move on only from an expected
 * status; lines are claimed at most once while their lease lasts (also by concurrent claimers), re-claimed after it,
 * completed only by their holder, counted, failed in bulk, paged in order and survive a reopen. Run it once per store.
 */
export function describeBatchStore(label: string, factory: BatchStoreFactory): void {
  describe(`BatchStore behaviour: ${label}`, () => {
    it('keeps files per owner, lists them by purpose in either order with a cursor, and deletes them', async () => {
      const store = await factory.open(uniqueName());
      await store.insertFile(file('file-1', 'alice', 100));
      await store.insertFile(file('file-2', 'alice', 200, 'user_data'));
      await store.insertFile(file('file-3', 'alice', 300));
      await store.insertFile(file('file-4', 'bob', 400));
      expect(await store.getFile('file-1', 'alice')).toEqual(file('file-1', 'alice', 100));
      expect(await store.getFile('file-1', 'bob')).toBeUndefined();
      const ids = async (query: Parameters<BatchStore['listFiles']>[0]) =>
        (await store.listFiles(query)).map((f) => f.id);
      expect(await ids({ owner: 'alice', limit: 10, order: 'desc' })).toEqual(['file-3', 'file-2', 'file-1']);
      expect(await ids({ owner: 'alice', limit: 10, order: 'asc' })).toEqual(['file-1', 'file-2', 'file-3']);
      expect(await ids({ owner: 'alice', limit: 10, order: 'desc', purpose: 'batch' })).toEqual(['file-3', 'file-1']);
      expect(await ids({ owner: 'alice', limit: 1, order: 'desc', after: 'file-3' })).toEqual(['file-2']);
      expect(await ids({ owner: 'alice', limit: 10, order: 'asc', after: 'file-1' })).toEqual(['file-2', 'file-3']);
      expect(await store.fileBytes('alice')).toBe(3 * 1234);
      expect(await store.fileBytes('carol')).toBe(0);
      await store.insertFile({ ...file('file-5', 'carol', 500), expires_at: 1_000 });
      expect((await store.expiredFiles(999, 10)).map((f) => f.id)).toEqual([]);
      expect(await store.expiredFiles(1_000, 10)).toEqual([{ ...file('file-5', 'carol', 500), expires_at: 1_000 }]);
      expect(await store.deleteFile('file-1', 'bob')).toBe(false);
      expect(await store.deleteFile('file-1', 'alice')).toBe(true);
      expect(await store.getFile('file-1', 'alice')).toBeUndefined();
      await store.close();
    });

    it('stores batches per owner, lists them newest first, and moves one on only from an expected status', async () => {
      const store = await factory.open(uniqueName());
      await store.insertBatch(batch('batch_1', 'alice', 100), lines(3));
      await store.insertBatch(batch('batch_2', 'alice', 200), []);
      expect(await store.getBatch('batch_1', 'alice')).toEqual(batch('batch_1', 'alice', 100));
      expect(await store.getBatch('batch_1', 'bob')).toBeUndefined();
      expect((await store.getBatch('batch_1'))?.owner).toBe('alice');
      expect((await store.listBatches('alice', 10)).map((b) => b.id)).toEqual(['batch_2', 'batch_1']);
      expect((await store.listBatches('alice', 10, 'batch_2')).map((b) => b.id)).toEqual(['batch_1']);
      const finalizing: StoredBatch = {
        ...batch('batch_1', 'alice', 100),
        status: 'finalizing',
        batch: { status: 'finalizing' },
      };
      expect(await store.updateBatch(finalizing, ['in_progress'])).toBe(true);
      expect(await store.updateBatch({ ...finalizing, status: 'completed' }, ['in_progress'])).toBe(false);
      expect(await store.getBatch('batch_1')).toMatchObject({ status: 'finalizing', batch: { status: 'finalizing' } });
      expect(await store.batchesWithStatus(['in_progress'])).toEqual(['batch_2']);
      await store.close();
    });

    it('claims each line once while its lease lasts, even for concurrent claimers, and again after it', async () => {
      const store = await factory.open(uniqueName());
      await store.insertBatch(batch('batch_c', 'alice', 100), lines(50));
      const claims = await Promise.all(
        Array.from({ length: 5 }, (_, w) => store.claimLines('batch_c', `w${w}`, 7, 1_000, 60_000)),
      );
      const claimed = claims.flat().map((l) => l.index);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.length).toBe(35);
      const rest = await store.claimLines('batch_c', 'w9', 100, 1_000, 60_000);
      expect(rest.map((l) => l.index)).toEqual(
        [...Array.from({ length: 50 }, (_, i) => i)].filter((i) => !claimed.includes(i)),
      );
      expect(await store.claimLines('batch_c', 'w9', 100, 59_999, 120_000)).toEqual([]);
      // Lease over: the lines are claimed again, with their attempt count.
      const again = await store.claimLines('batch_c', 'w8', 2, 60_001, 120_000);
      expect(again).toEqual([
        { index: 0, custom_id: 'c-0', body: '{"n":0}', attempts: 1 },
        { index: 1, custom_id: 'c-1', body: '{"n":1}', attempts: 1 },
      ]);
      // Lines whose lease ended (their worker died) are failed with the pending ones; live leases are not.
      expect(
        await store.failOpenLines(
          'batch_c',
          { failed: true, error: { code: 'batch_expired', message: 'expired' } },
          100_000,
        ),
      ).toBe(48);
      expect(await store.lineCounts('batch_c')).toEqual({ total: 50, completed: 0, failed: 48, open: 2 });
      await store.close();
    });

    it('completes lines only for their holder, counts them, fails the open ones and pages the done ones in order', async () => {
      const name = uniqueName();
      const store = await factory.open(name);
      await store.insertBatch(batch('batch_d', 'alice', 100), lines(5));
      await store.claimLines('batch_d', 'w1', 3, 1_000, 60_000);
      expect(await store.completeLine('batch_d', 0, 'w2', ok(0))).toBe(false);
      expect(await store.completeLine('batch_d', 0, 'w1', ok(0))).toBe(true);
      expect(await store.completeLine('batch_d', 0, 'w1', ok(0))).toBe(false);
      const failed: BatchLineResult = {
        failed: true,
        response: { status_code: 400, request_id: 'req_1', body: { error: { message: 'bad' } } },
      };
      expect(await store.completeLine('batch_d', 1, 'w1', failed)).toBe(true);
      expect(await store.lineCounts('batch_d')).toEqual({ total: 5, completed: 1, failed: 1, open: 3 });
      const quota: BatchLineResult = { failed: true, error: { code: 'insufficient_quota', message: 'budget spent' } };
      // Pending lines fail; line 2, running under a live lease, is left to its holder.
      expect(await store.failOpenLines('batch_d', quota, 1_000)).toBe(2);
      expect(await store.lineCounts('batch_d')).toEqual({ total: 5, completed: 1, failed: 3, open: 1 });
      expect(await store.completeLine('batch_d', 2, 'w1', ok(2))).toBe(true);
      await store.close();
      const reopened = await factory.open(name);
      expect(await reopened.lineCounts('batch_d')).toEqual({ total: 5, completed: 2, failed: 3, open: 0 });
      const first = await reopened.doneLines('batch_d', -1, 2);
      expect(first).toEqual([
        { index: 0, custom_id: 'c-0', result: ok(0) },
        { index: 1, custom_id: 'c-1', result: failed },
      ]);
      expect((await reopened.doneLines('batch_d', 1, 10)).map((l) => [l.index, l.result])).toEqual([
        [2, ok(2)],
        [3, quota],
        [4, quota],
      ]);
      await reopened.deleteLines('batch_d');
      expect(await reopened.lineCounts('batch_d')).toEqual({ total: 0, completed: 0, failed: 0, open: 0 });
      await reopened.close();
    });
  });
}
