import { createHash } from 'node:crypto';
import type { AdminSession, AdminSessionStore } from '@switchyard/accounts';
import { describe, expect, it } from 'vitest';
import { uniqueName } from './account-store-samples.js';

/** Opens a store of one implementation by name (see `AccountStoreFactory`). */
interface SessionStoreFactory {
  open(name: string): Promise<AdminSessionStore & { close(): Promise<void> }>;
}

const session = (name: string, fields: Partial<AdminSession> = {}): AdminSession => ({
  id_hash: createHash('sha256').update(name).digest('hex'),
  actor: `oidc:${name}@example.com`,
  role: 'team_admin',
  teams: ['team_a', 'team_b'],
  method: 'oidc',
  created_at: 1_790_000_000_000,
  expires_at: 1_790_000_000_000 + 8 * 3_600_000,
  ...fields,
});

/**
 * The console sessions every account store keeps: a session round-trips (every field, times in unix ms), is found
 * only by its hash, survives a reopen, ends on delete, and the expired ones (and only they) are swept.
 */
export function describeAdminSessionStore(label: string, factory: SessionStoreFactory): void {
  describe(`AdminSessionStore behaviour: ${label}`, () => {
    it('stores, finds by hash, reopens, deletes and sweeps expired sessions', async () => {
      const name = uniqueName();
      const store = await factory.open(name);
      const live = session('live');
      const old = session('old', { role: 'viewer', teams: [], expires_at: live.created_at + 1 });
      await store.insertAdminSession(live);
      await store.insertAdminSession(old);
      expect(await store.getAdminSession(live.id_hash)).toEqual(live);
      expect(await store.getAdminSession(session('unknown').id_hash)).toBeUndefined();
      await store.close();
      const reopened = await factory.open(name);
      expect(await reopened.getAdminSession(old.id_hash)).toEqual(old);
      expect(await reopened.deleteExpiredAdminSessions(live.created_at + 1)).toBe(1);
      expect(await reopened.getAdminSession(old.id_hash)).toBeUndefined();
      expect(await reopened.getAdminSession(live.id_hash)).toEqual(live);
      await reopened.deleteAdminSession(live.id_hash);
      await reopened.deleteAdminSession(live.id_hash); // unknown: nothing happens
      expect(await reopened.getAdminSession(live.id_hash)).toBeUndefined();
      await reopened.close();
    });
  });
}
