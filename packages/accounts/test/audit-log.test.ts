import { describe, expect, it } from 'vitest';
import { AuditLog } from '../src/index.js';
import { memoryStore } from './memory-store.js';

describe('AuditLog', () => {
  it('removes secrets, hashes and credentials at any depth, and clips long text', async () => {
    const store = memoryStore();
    const log = new AuditLog(store);
    await log.record({
      actor: 'a'.repeat(300),
      action: 'key.create',
      target: 'key_1',
      after: {
        id: 'key_1',
        key: 'sk-sy-secret',
        key_hash: 'abc',
        nested: { api_key: 'up', list: [{ client_secret: 'x', Password: 'y', kept: 1 }] },
      },
    });
    const [entry] = await log.list({ limit: 10 });
    expect(entry?.actor).toHaveLength(256);
    expect(entry?.after).toEqual({ id: 'key_1', nested: { list: [{ kept: 1 }] } });
    expect(entry?.before).toBeNull();
    expect(entry?.source_address).toBeNull();
  });

  it('writes at most failedSignInsPerMinute failed sign-ins a minute; the next one written counts those left out', async () => {
    const store = memoryStore();
    const log = new AuditLog(store, { failedSignInsPerMinute: 3 });
    const minute = 60_000 * 1000;
    for (let i = 0; i < 10; i++)
      await log.record(
        { actor: 'unknown', action: 'sign_in.failed', after: { reason: 'invalid credentials' } },
        minute + i,
      );
    await log.record({ actor: 'master_key', action: 'key.create', target: 'key_1' }, minute + 20); // never limited
    expect((await log.list({ limit: 100 })).map((e) => e.action)).toEqual([
      'key.create',
      'sign_in.failed',
      'sign_in.failed',
      'sign_in.failed',
    ]);
    await log.record(
      { actor: 'unknown', action: 'sign_in.failed', after: { reason: 'invalid credentials' } },
      minute + 60_000,
    );
    const [latest] = await log.list({ limit: 1 });
    expect(latest?.after).toEqual({ reason: 'invalid credentials', unrecorded_failures: 7 });
  });

  it('reports a failed write to onError and never rejects', async () => {
    const store = memoryStore();
    store.appendAudit = async () => {
      throw new Error('store down');
    };
    const errors: unknown[] = [];
    await new AuditLog(store, { onError: (e) => errors.push(e) }).record({
      actor: 'master_key',
      action: 'key.revoke',
      target: 'key_1',
    });
    expect(errors).toEqual([new Error('store down')]);
  });
});
